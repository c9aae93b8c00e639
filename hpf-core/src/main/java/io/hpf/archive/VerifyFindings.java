package io.hpf.archive;

import io.hpf.archive.VerifyReport.Problem;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.internal.manifest.Section;
import io.hpf.store.Storage;
import java.util.ArrayList;
import java.util.List;

/** What a verify found so far: its problems, the entries and bytes it checked, told as it goes. */
final class VerifyFindings {
  private final Storage storage;
  private final ProgressListener progress;
  private final List<Problem> problems = new ArrayList<>();
  private long entriesChecked;
  private long bytesChecked;

  VerifyFindings(Storage storage, ProgressListener progress) {
    this.storage = storage;
    this.progress = progress;
  }

  void problem(CorruptArchiveException e) {
    problems.add(new Problem(e.file(), e.offset(), e.getMessage()));
  }

  /** A problem in one of the archive's files, at an offset (-1: the file as a whole). */
  void problem(String fileName, long offset, String message) {
    problemIn(storage.describe(fileName), offset, message);
  }

  /** A problem of a catalog or a bucket, wherever it is. */
  void problem(Section section, String message) {
    problemIn(section.describe(storage), -1, message);
  }

  /** A problem as said elsewhere: the file first, then what is wrong. */
  void problemAsSaid(String said) {
    problems.add(new Problem(said.substring(0, said.indexOf(": ")), -1, said));
  }

  private void problemIn(String file, long offset, String message) {
    problems.add(
        new Problem(
            file, offset, file + (offset >= 0 ? " at offset " + offset : "") + ": " + message));
  }

  boolean none() {
    return problems.isEmpty();
  }

  void checkedBytes(long n) {
    bytesChecked += n;
  }

  /** One more live entry checked, of {@code total}. */
  void checkedEntry(long total) {
    entriesChecked++;
    progress.progress(entriesChecked, bytesChecked, total, -1);
  }

  VerifyReport report() {
    return new VerifyReport(entriesChecked, bytesChecked, problems);
  }
}
