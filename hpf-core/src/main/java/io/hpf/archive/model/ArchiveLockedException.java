package io.hpf.archive.model;

/** Another writer holds the archive's lock. The message says who, where and since when. */
public final class ArchiveLockedException extends ArchiveException {
  private static final long serialVersionUID = 1L;

  public ArchiveLockedException(String lockFile, String holder) {
    super(
        lockFile
            + ": the archive is locked by another writer ("
            + holder
            + "); if that writer is gone, break the lock (--break-lock)");
  }

  /** The lock was not broken although asked to: {@code why} says why. */
  public ArchiveLockedException(String lockFile, String holder, String why) {
    super(lockFile + ": the archive is locked by another writer (" + holder + "); " + why);
  }
}
