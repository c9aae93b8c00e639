package io.hpf.archive.model;

/** A file was written by a newer (or unknown) version of the format than this code reads. */
public class UnsupportedVersionException extends CorruptArchiveException {
  private static final long serialVersionUID = 1L;

  /**
   * @param minReadable the oldest version this code reads
   * @param newestReadable the newest version this code reads
   */
  public UnsupportedVersionException(
      String file, int version, int minReadable, int newestReadable) {
    super(
        file,
        8,
        "format version "
            + version
            + " is not supported (this hpf reads versions "
            + minReadable
            + " to "
            + newestReadable
            + ")");
  }
}
