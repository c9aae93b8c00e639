package io.hpf.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Temporary directories of fixtures that outlive one test (shared clusters, a contract's archive),
 * deleted when the test JVM exits, so that a run of the suite leaves nothing under {@code /tmp}.
 * JUnit's {@code @TempDir} is for the rest.
 */
public final class TempDirs {
  private TempDirs() {}

  /** A new directory, deleted with what it holds when the JVM exits. */
  public static Path deletedAtExit(String prefix) throws IOException {
    Path dir = Files.createTempDirectory(prefix);
    deleteAtExit(dir, () -> {});
    return dir;
  }

  /**
   * Deletes {@code dir} when the JVM exits, after {@code first} (stopping what writes there). The
   * classes the deletion needs are loaded now: at exit, a test runner may have closed the jars they
   * would load from, and the hook would die before deleting anything.
   */
  public static void deleteAtExit(Path dir, Runnable first) {
    deleteQuietly(dir.resolve("hpf-not-there"));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    first.run();
                  } finally {
                    deleteQuietly(dir);
                  }
                }));
  }

  /** Deletes a directory and what it holds, as far as it can. */
  public static void deleteQuietly(Path dir) {
    io.hpf.internal.sort.ScratchDirectory.deleteTree(dir);
  }
}
