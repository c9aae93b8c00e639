package io.hpf.cli;

import static io.hpf.cli.CliRun.hpf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.hadoop.SeaweedS3;
import io.hpf.testing.ArchiveModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands with s3a:// URIs as the README gives them (settings as -D, no extra jars) against a
 * real S3 server (SeaweedFS, a process of its own); skipped, saying so, where it is not built.
 */
class S3aCliTest {
  @TempDir static Path base;
  private static SeaweedS3 s3;

  @BeforeAll
  static void startServer() throws Exception {
    s3 = SeaweedS3.sharedOrSkip();
  }

  private static CliRun run(String command, Object... args) {
    List<Object> all = new ArrayList<>();
    all.add(command);
    all.addAll(s3.cliOptions());
    all.addAll(List.of(args));
    CliRun r = hpf(all.toArray());
    // Nothing of S3A's own warnings (an unsupported hsync once per file, say) reaches users.
    assertFalse(r.err().contains("WARN"), r.err());
    return r;
  }

  @Test
  void everyCommandWorksOnAnArchiveInS3() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(120, 41);
    Path tree = base.resolve("tree");
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      Files.createDirectories(tree.resolve(e.getKey()).getParent());
      Files.write(tree.resolve(e.getKey()), e.getValue());
    }
    String archive = s3.freshPath("photos.hpf").toString();
    CliRun create = run("create", archive, tree);
    assertEquals(0, create.code(), create.err());
    assertEquals(List.copyOf(model.keySet()), List.of(run("ls", archive).text().split("\n")));
    String first = model.firstKey();
    assertArrayEquals(model.get(first), run("cat", archive, first).out());

    Path more = base.resolve("more.txt");
    Files.writeString(more, "added later");
    assertEquals(0, run("add", "--prefix", "late/", archive, more).code());
    assertEquals(0, run("rm", archive, first).code());
    assertEquals(1, run("cat", archive, first).code());
    assertEquals("added later", run("cat", archive, "late/more.txt").text());
    CliRun compact = run("compact", "--reclaim", archive);
    assertEquals(0, compact.code(), compact.err());
    CliRun verify = run("verify", archive);
    assertEquals(0, verify.code(), verify.err() + verify.text());
    CliRun log = run("log", archive);
    assertTrue(log.text().contains("add"), log.text());
    assertEquals(
        model.size(), run("ls", archive).text().split("\n").length, "one removed, one added");
  }

  @Test
  void aMapReduceJobReadsAndWritesArchivesInS3() throws Exception {
    Path tree = base.resolve("texts");
    java.util.Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < 30; i++) {
      StringBuilder text = new StringBuilder();
      for (int w = 0; w < 20; w++) {
        String word = "w" + ((i * 7 + w * 3) % 11);
        text.append(word).append(w % 5 == 4 ? "\n" : " ");
        counts.merge(word, 1, Integer::sum);
      }
      Path file = tree.resolve("d" + (i % 3) + "/t" + i + ".txt");
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    }
    String in = s3.freshPath("texts.hpf").toString();
    String out = s3.freshPath("counts.hpf").toString();
    assertEquals(0, run("create", in, tree).code());
    List<Object> job = new ArrayList<>(List.of("mapreduce", "wordcount", in, out, "--reduce"));
    job.addAll(s3.cliOptions());
    CliRun wordcount = hpf(job.toArray());
    assertEquals(0, wordcount.code(), wordcount.err());
    StringBuilder expected = new StringBuilder();
    counts.forEach((word, n) -> expected.append(word).append('\t').append(n).append('\n'));
    assertEquals(expected.toString(), run("cat", out, "part-r-00000").text());
  }

  @Test
  void aSecondWriterIsRefusedWhileTheFirstHoldsTheLock() throws Exception {
    String archive = s3.freshPath("locked.hpf").toString();
    Path one = base.resolve("one/one.txt");
    Files.createDirectories(one.getParent());
    Files.writeString(one, "1");
    assertEquals(0, run("create", archive, one.getParent()).code());
    // A writer that holds the lock: its lock file, as a live writer elsewhere leaves it.
    try (var out = s3.fs().create(new org.apache.hadoop.fs.Path(archive + "/hpf.lock"), false)) {
      out.write(
          "host elsewhere, pid 1, since 2026-01-01T00:00:00Z"
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    CliRun second = run("add", archive, one);
    assertEquals(1, second.code());
    assertTrue(second.err().contains("hpf.lock"), second.err());
    assertTrue(second.err().contains("host elsewhere"), second.err());
  }
}
