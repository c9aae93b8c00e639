package io.hpf.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

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
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir)));
    return dir;
  }

  /**
   * Deletes a directory and what it holds, as far as it can: a shutdown hook has no one to tell of
   * a file it cannot delete.
   */
  public static void deleteQuietly(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(TempDirs::deleteOne);
    } catch (IOException | UncheckedIOException e) {
      // a file vanished or could not be listed: leave what remains
    }
  }

  private static void deleteOne(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // leave it: see deleteQuietly
    }
  }
}
