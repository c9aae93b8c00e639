package io.hpf.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's job example runs as shown, and its code is the README's. */
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void theExampleJobRuns() throws Exception {
    Path in = dir.resolve("in.hpf");
    try (ArchiveWriter w =
        ArchiveWriter.create(LocalStorage.createDirectories(in), WriterOptions.builder().build())) {
      w.add("logs/a.log", new byte[10], EntryMetadata.of(0));
      w.add("logs/2024/b.log", new byte[2000], EntryMetadata.of(0));
      w.add("other/c", new byte[5], EntryMetadata.of(0));
      w.commit();
    }
    Configuration conf = new Configuration();
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.client.completion.pollinterval", 50); // not 5 s per job
    conf.set("mapreduce.cluster.local.dir", dir.resolve("mr").toString());
    Path out = dir.resolve("out.hpf");
    assertTrue(
        ReadmeExampleJob.run(
            conf,
            new org.apache.hadoop.fs.Path(in.toUri()),
            new org.apache.hadoop.fs.Path(out.toUri())));
    StringBuilder expected = new StringBuilder(); // the job sees entries as they lie in parts
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(in))) {
      for (var row : r.entriesInPartOrder()) {
        if (row.name().startsWith("logs/")) {
          expected.append(row.name()).append('\t').append(row.rawLength()).append('\n');
        }
      }
    }
    assertEquals(2, expected.toString().lines().count());
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(out))) {
      assertEquals(expected.toString(), new String(r.get("part-m-00000"), StandardCharsets.UTF_8));
    }
  }

  @Test
  void theReadmeShowsThisCode() throws Exception {
    String source =
        Files.readString(
            Path.of("src/test/java/io/hpf/mapreduce/ReadmeExampleJob.java"),
            StandardCharsets.UTF_8);
    String example =
        source.substring(
            source.indexOf('\n', source.indexOf("// README example begins")) + 1,
            source.indexOf("  // README example ends"));
    String readme = Files.readString(Path.of("../docs/MAPREDUCE.md"), StandardCharsets.UTF_8);
    assertTrue(
        readme.contains(example.stripTrailing().stripIndent()),
        "docs/MAPREDUCE.md shows ReadmeExampleJob's code");
  }
}
