package io.hpf.archive;

/**
 * One thing {@link ArchiveVerifier} found wrong.
 *
 * @param file the file, as the storage describes it
 * @param offset the byte offset in that file, or -1 when the problem is the whole file
 * @param message what is wrong, with actual and expected values
 */
public record Problem(String file, long offset, String message) {
  @Override
  public String toString() {
    return offset < 0
        ? message
        : message + (message.contains(file) ? "" : " [" + file + " @ " + offset + "]");
  }
}
