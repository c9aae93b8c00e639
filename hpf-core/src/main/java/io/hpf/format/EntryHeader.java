package io.hpf.format;

import java.util.Map;

/**
 * The self-describing header in front of every entry's content in a part file (FORMAT.md "Entry").
 * Immutable.
 *
 * @param name the entry name, normalized
 * @param codec how the content is stored
 * @param dictionaryId the zstd dictionary used, 0 for none
 * @param rawLength content length after decompression
 * @param storedLength content length as stored
 * @param mtimeMillis modification time, milliseconds since the epoch
 * @param mode POSIX permission bits
 * @param attributes user attributes, UTF-8 keys and values, in stored order
 * @param headerLength bytes of the header, from the entry magic through the header CRC; for a
 *     member of a group, the bytes of its member header inside the group
 * @param group true for a group entry (FORMAT.md "Group"): no name, its content holds members
 */
public record EntryHeader(
    String name,
    Codec codec,
    int dictionaryId,
    long rawLength,
    long storedLength,
    long mtimeMillis,
    int mode,
    Map<String, String> attributes,
    int headerLength,
    boolean group) {

  /** Bytes of the whole entry: header, stored content and the content CRC trailer. */
  public long entryLength() {
    return headerLength + storedLength + FormatConstants.ENTRY_TRAILER_BYTES;
  }
}
