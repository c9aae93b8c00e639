package io.hpf.archive;

import java.util.List;

/**
 * The result of {@link ArchiveVerifier#verify}.
 *
 * @param entriesChecked entries whose content was read and checked
 * @param bytesChecked bytes of files read
 * @param problems everything found wrong; empty when the archive is intact
 */
public record VerifyReport(long entriesChecked, long bytesChecked, List<Problem> problems) {
  public VerifyReport {
    problems = List.copyOf(problems);
  }

  public boolean ok() {
    return problems.isEmpty();
  }

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
}
