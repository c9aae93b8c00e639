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
}
