package io.hpf.internal.format;

import io.hpf.archive.model.CorruptArchiveException;

/**
 * Where an index may place an entry in a part: after the file header, whole before the part's
 * committed length, and, in a part file cut short by damage, whole before the cut (an entry past it
 * is lost, and said to be, while the entries before it read).
 */
final class PartBounds {
  private PartBounds() {}

  /**
   * Throws naming the part file, the offset and the rule broken unless an entry of {@code
   * entryLength} bytes at {@code offset} lies inside the part.
   *
   * @param limit the part's committed length
   * @param fileLength the file's length where it is shorter than {@code limit}, else any larger
   */
  static void check(String path, long limit, long fileLength, long offset, long entryLength)
      throws CorruptArchiveException {
    if (offset < FormatConstants.FILE_HEADER_BYTES
        || entryLength < FormatConstants.ENTRY_FIXED_HEADER_BYTES + 8
        || entryLength > limit - offset) {
      throw new CorruptArchiveException(
          path,
          offset,
          "index points to an entry of "
              + entryLength
              + " bytes outside the committed part of "
              + limit
              + " bytes");
    }
    if (entryLength > fileLength - offset) {
      throw new CorruptArchiveException(
          path,
          offset,
          "the part file is cut short at "
              + fileLength
              + " of its "
              + limit
              + " committed bytes: the entry of "
              + entryLength
              + " bytes here is lost");
    }
  }
}
