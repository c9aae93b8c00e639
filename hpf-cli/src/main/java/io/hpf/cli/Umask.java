package io.hpf.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's file-creation mask, which Java does not expose; Linux shows it in /proc. */
final class Umask {
  private Umask() {}

  /** The umask bits, or 0777 when unknown (then every file's mode is set explicitly). */
  static int current() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("Umask:")) {
          return Integer.parseInt(line.substring("Umask:".length()).trim(), 8);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or an old kernel: fall through.
    }
    return 0777;
  }
}
