package io.hpf.internal.format;

import io.hpf.archive.CorruptArchiveException;

/** A file was written by a newer (or unknown) version of the format than this code reads. */
public class UnsupportedVersionException extends CorruptArchiveException {
  private static final long serialVersionUID = 1L;

  public UnsupportedVersionException(String file, int version) {
    super(
        file,
        8,
        "format version "
            + version
            + " is not supported (this hpf reads versions "
            + FormatConstants.VERSION_MIN_READABLE
            + " to "
            + FormatConstants.VERSION_CURRENT
            + ")");
  }
}
