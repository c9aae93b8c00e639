package io.hpf.archive;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.FormatConstants;

/**
 * What one lookup returns for serving an entry (TýrFS's {@code fetch}: open and read in one call):
 * its row, its content checksum and, when small enough, its checked content. A larger entry is read
 * with {@link ArchiveReader#openStream(EntryInfo, long)} from the same reader, at its place.
 *
 * @param info the entry's row (part, offset, lengths, codec, metadata)
 * @param crc32c the CRC32C of the raw content, as stored with the entry
 * @param content the checked raw content, or null when larger than asked for whole
 */
public record FetchedEntry(EntryInfo info, int crc32c, byte[] content) {
  /**
   * Where the stored content starts in its part file: after the entry's header.
   *
   * @throws IllegalStateException for a member of a group, whose content is only in its group's
   *     decompressed bytes
   */
  public long contentOffset() {
    if (info.inGroup()) {
      throw new IllegalStateException("'" + info.name() + "' is in a group: no content offset");
    }
    return info.offset()
        + info.entryLength()
        - info.storedLength()
        - FormatConstants.ENTRY_TRAILER_BYTES;
  }
}
