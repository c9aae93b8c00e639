package io.hpf.bench.scale;

import io.hpf.bench.BenchOutput;
import io.hpf.bench.LocalTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hpf bench scale}: one archive of N generated entries, measured from create to verify. */
@Command(
    name = "scale",
    mixinStandardHelpOptions = true,
    description = {
      "Builds an archive of N generated entries (names shaped like log paths, 1,000",
      "to a directory; sizes around --size; no files on disk) through the normal",
      "writer, then measures it: create rate, size, the first open in a fresh",
      "process, the memory a warm reader holds per entry, warm gets (p50, p99),",
      "misses, listing a 1,000-name directory, adding 1,000 entries, compacting and",
      "verifying. Prints one JSON line (appended to --out); each phase runs in a JVM",
      "of its own. The archive is deleted after unless --keep."
    },
    footer = {
      "",
      "Examples:",
      "  hpf bench scale --entries 1000000",
      "  hpf bench scale --entries 10000000 --size 100 --json"
    })
public final class ScaleCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--entries", required = true, paramLabel = "N", description = "Entries to make.")
  long entries;

  @Option(
      names = "--size",
      paramLabel = "BYTES",
      defaultValue = "100",
      description = "Mean content size (default: ${DEFAULT-VALUE}).")
  int size;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Where to make the archive (default: a new directory under /tmp).")
  Path dir;

  @Option(names = "--keep", description = "Keep the archive.")
  boolean keep;

  @Option(names = "--json", description = "Print the JSON line only (no progress).")
  boolean json;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      defaultValue = "bench-results/scale.jsonl",
      description = "JSON lines appended here (default: ${DEFAULT-VALUE}).")
  Path out;

  @Override
  public Integer call() throws Exception {
    if (entries < GeneratedEntries.PER_DIRECTORY || entries > GeneratedEntries.MAX_ENTRIES) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "--entries must be from "
              + GeneratedEntries.PER_DIRECTORY
              + " to "
              + GeneratedEntries.MAX_ENTRIES);
    }
    if (size < 1 || size > 1 << 20) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--size must be from 1 to 1048576 bytes");
    }
    Path made = dir == null ? Files.createTempDirectory("hpf-scale") : null;
    Path archive = (made != null ? made : dir).resolve("scale.hpf");
    if (Files.exists(archive)) {
      throw new IOException(archive + " exists: give another --dir");
    }
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("benchmark", "scale");
    figures.put("entries", entries);
    figures.put("size", size);
    try {
      for (String phase : List.of("create", "open", "measure")) {
        say(phase + "...");
        Map<String, Object> found = runPhase(phase, archive);
        say(phase + ": " + found); // what a phase found stays said if a later one fails
        figures.putAll(found);
      }
    } finally {
      if (!keep) {
        LocalTrees.delete(made != null ? made : archive);
      }
    }
    String command = "hpf bench scale --entries " + entries + " --size " + size;
    new BenchOutput(out, command).write(figures);
    return 0;
  }

  private void say(String line) {
    if (!json) {
      System.err.println("hpf bench scale: " + line);
    }
  }

  /** Runs one phase in a JVM of its own (C2, the parallel collector); returns its figures. */
  private Map<String, Object> runPhase(String phase, Path archive)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-XX:+UseParallelGC");
    command.add("-XX:MaxRAMPercentage=75");
    for (String property : List.of("ZstdNativePath", "java.library.path")) {
      String value = System.getProperty(property);
      if (value != null) {
        command.add("-D" + property + "=" + value);
      }
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ScaleRun.class.getName());
    command.addAll(
        List.of(phase, archive.toString(), Long.toString(entries), Integer.toString(size)));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException("the " + phase + " phase failed (its error is above)");
    }
    Map<String, Object> figures = new LinkedHashMap<>();
    for (String line : said.strip().split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        String value = line.substring(eq + 1);
        figures.put(
            line.substring(0, eq),
            value.contains(".") ? (Object) Double.valueOf(value) : (Object) Long.valueOf(value));
      }
    }
    return figures;
  }
}
