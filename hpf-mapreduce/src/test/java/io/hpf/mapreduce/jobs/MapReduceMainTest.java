package io.hpf.mapreduce.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hpf mapreduce} on local archives with the local job runner, and its usage errors. */
class MapReduceMainTest {
  @TempDir Path dir;

  private record Result(int exit, String out, String err) {}

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        MapReduceMain.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void wordCountOfSelectedEntriesWithAReducePhase() throws Exception {
    Path in = dir.resolve("in.hpf");
    try (ArchiveWriter w =
        ArchiveWriter.create(LocalStorage.createDirectories(in), WriterOptions.builder().build())) {
      w.add(
          "books/a.txt",
          "to be or not to be\n".getBytes(StandardCharsets.UTF_8),
          EntryMetadata.of(0));
      w.add("books/b.txt", "be quick".getBytes(StandardCharsets.UTF_8), EntryMetadata.of(0));
      w.add("logs/c.log", "to to to".getBytes(StandardCharsets.UTF_8), EntryMetadata.of(0));
      w.commit();
    }
    Path out = dir.resolve("out.hpf");
    Result r =
        run(
            "wordcount",
            in.toUri().toString(),
            out.toUri().toString(),
            "--select",
            "name:books/*",
            "--reduce",
            "-D",
            "mapreduce.framework.name=local",
            "-Dmapreduce.cluster.local.dir=" + dir.resolve("mr"));
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().startsWith("wordcount: 2 entries read"), r.out());
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(out))) {
      assertEquals(
          "be\t3\nnot\t1\nor\t1\nquick\t1\nto\t2\n",
          new String(reader.get("part-r-00000"), StandardCharsets.UTF_8));
    }
  }

  /**
   * A job that fails says why in one line, and nothing else reaches standard error (Hadoop's client
   * logged three log4j warnings and the reason was "NA"): run as its own process, as the launcher
   * runs it.
   */
  @Test
  void aFailedJobSaysWhyInOneLine() throws Exception {
    Path in = dir.resolve("in.hpf");
    try (ArchiveWriter w =
        ArchiveWriter.create(LocalStorage.createDirectories(in), WriterOptions.builder().build())) {
      w.add("a.txt", "one two".getBytes(StandardCharsets.UTF_8), EntryMetadata.of(0));
      w.commit();
    }
    String out = dir.resolve("out.hpf").toUri().toString();
    String[] line = {
      "wordcount",
      in.toUri().toString(),
      out,
      "--reduce",
      "-Dmapreduce.framework.name=local",
      "-Dmapreduce.cluster.local.dir=" + dir.resolve("mr")
    };
    assertEquals(0, process(line).exit());
    Result again = process(line); // the output archive has part-r-00000 already
    assertEquals(1, again.exit(), again.err());
    assertEquals("", again.out());
    assertTrue(
        again.err().startsWith("hpf mapreduce: the job failed: ")
            && again.err().contains("'part-r-00000'")
            && again.err().contains("--replace"),
        again.err());
    assertEquals(1, again.err().lines().count(), again.err());
  }

  private static Result process(String... args) throws Exception {
    java.util.List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(MapReduceMain.class.getName());
    command.addAll(java.util.List.of(args));
    Process p = new ProcessBuilder(command).start();
    java.util.concurrent.CompletableFuture<String> err =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(p.waitFor(), out, err.get());
  }

  @Test
  void helpShowsExamples() {
    Result help = run("--help");
    assertEquals(0, help.exit(), help.err());
    assertTrue(help.out().contains("Examples:\n  hpf mapreduce wordcount "), help.out());
  }

  @Test
  void usageErrorsSayWhatIsWrong() {
    Result badSelect = run("wordcount", "a.hpf", "b.hpf", "--select", "name:x sise:3");
    assertEquals(2, badSelect.exit());
    assertTrue(badSelect.err().contains("position 8: unknown field 'sise'"), badSelect.err());
    Result noJob = run("count", "a.hpf", "b.hpf");
    assertEquals(2, noJob.exit());
    assertTrue(noJob.err().contains("no job 'count'"), noJob.err());
    Result missing = run("sort", "only.hpf");
    assertEquals(2, missing.exit());
    Result noInput =
        run(
            "sort",
            dir.resolve("absent.hpf").toUri().toString(),
            dir.resolve("o.hpf").toUri().toString(),
            "-Dmapreduce.framework.name=local");
    assertEquals(1, noInput.exit());
    assertTrue(noInput.err().contains("no such archive"), noInput.err());
    assertEquals(1, noInput.err().strip().lines().count(), noInput.err());
  }
}
