package io.hpf.internal.index;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FormatConstants;

/**
 * One fixed-size record of a bucket file (FORMAT.md "Index record"): where an entry is, or a
 * tombstone. Its own CRC32C means a damaged record is reported, never followed.
 *
 * @param fingerprint the name hash of the entry's name
 * @param partId the part file holding the entry, or {@link FormatConstants#TOMBSTONE_PART_ID}
 * @param offset the entry's offset in that part file
 * @param entryLength the entry's length in bytes (header, content and trailer)
 */
public record IndexRecord(long fingerprint, int partId, long offset, long entryLength) {

  public boolean isTombstone() {
    return partId == FormatConstants.TOMBSTONE_PART_ID;
  }

  void writeTo(ByteWriter out) {
    int start = out.size();
    out.u64(fingerprint).u64(offset).u64(entryLength).u32(partId);
    out.crcOf(start);
  }

  static IndexRecord read(String file, long fileOffset, byte[] bytes, int at)
      throws CorruptArchiveException {
    int expected = ByteReader.getU32(bytes, at + 28);
    int actual = EntryCodec.crc32c(bytes, at, 28);
    FileFraming.checkCrc(file, fileOffset, "index record", actual, expected);
    long fingerprint = ByteReader.getU64(bytes, at);
    long offset = ByteReader.getU64(bytes, at + 8);
    long entryLength = ByteReader.getU64(bytes, at + 16);
    int partId = ByteReader.getU32(bytes, at + 24);
    if (offset < 0 || entryLength < 0) {
      throw new CorruptArchiveException(
          file, fileOffset, "index record has a negative offset or length");
    }
    return new IndexRecord(fingerprint, partId, offset, entryLength);
  }
}
