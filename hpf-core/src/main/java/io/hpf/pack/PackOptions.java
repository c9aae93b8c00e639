package io.hpf.pack;

/**
 * How {@link Packer} reads a source directory.
 *
 * @param threads worker threads reading, compressing and appending (each fills its own part)
 * @param followSymlinks follow symbolic links (a loop is an error); otherwise they are skipped and
 *     listed
 * @param skipUnreadable skip files that cannot be read (listed in the result) instead of failing
 * @param trainDictionary with zstd, train a dictionary on a sample of the files
 */
public record PackOptions(
    int threads, boolean followSymlinks, boolean skipUnreadable, boolean trainDictionary) {

  public PackOptions {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
  }

  /** Defaults: one thread per core, symlinks skipped, unreadable files fail, dictionary on. */
  public static PackOptions defaults() {
    return new PackOptions(Runtime.getRuntime().availableProcessors(), false, false, true);
  }
}
