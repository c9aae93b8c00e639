package io.hpf.archive.model;

/**
 * A reader's generation names a file that is another file now: the archive was replaced under its
 * path (renamed over, copied anew) after the reader opened it. Nothing was read from the new file;
 * a reader opened again reads the archive now there.
 */
public class ArchiveReplacedException extends ArchiveException {
  private static final long serialVersionUID = 1L;

  public ArchiveReplacedException(String message) {
    super(message);
  }
}
