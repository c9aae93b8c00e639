package io.hpf.bench;

import io.hpf.archive.EntryJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Writes one JSON line per measurement, each carrying the machine, JDK, commit and exact command,
 * so that a result can be traced and compared (PTHash's benchmark convention).
 */
public final class BenchOutput {
  private final Path file;
  private final Map<String, Object> context = new LinkedHashMap<>();

  public BenchOutput(Path file, String command) throws IOException {
    this.file = file;
    Files.createDirectories(file.toAbsolutePath().getParent());
    context.put("command", command);
    context.put("machine", machine());
    context.put("cores", Runtime.getRuntime().availableProcessors());
    context.put(
        "jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    context.put("commit", commit());
    context.put("time", java.time.Instant.now().toString());
  }

  private static String machine() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // Not Linux: fall through.
    }
    return System.getProperty("os.arch");
  }

  /** Appends one measurement and echoes it to standard output. */
  public void write(Map<String, Object> measurement) throws IOException {
    Map<String, Object> all = new LinkedHashMap<>(measurement);
    all.putAll(context);
    StringBuilder line = new StringBuilder("{");
    for (Map.Entry<String, Object> e : all.entrySet()) {
      if (line.length() > 1) {
        line.append(',');
      }
      line.append(quote(e.getKey())).append(':');
      Object v = e.getValue();
      if (v instanceof Number n) {
        line.append(n instanceof Double d ? String.format(Locale.ROOT, "%.4f", d) : n.toString());
      } else {
        line.append(quote(String.valueOf(v)));
      }
    }
    line.append("}\n");
    Files.writeString(
        file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    System.out.print(line);
  }

  private static String quote(String s) {
    return EntryJson.string(s); // a newline in a command line stays one JSON line
  }

  /**
   * The commit measured: $HPF_COMMIT if set, else what git says of the working directory (with
   * "-dirty" when it has changes), else "unknown" (not a checkout).
   */
  static String commit() {
    String given = System.getenv("HPF_COMMIT");
    if (given != null && !given.isBlank()) {
      return given;
    }
    try {
      Process git =
          new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
              .redirectErrorStream(true)
              .start();
      String out =
          new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
              .trim();
      return git.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
    } catch (java.io.IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
