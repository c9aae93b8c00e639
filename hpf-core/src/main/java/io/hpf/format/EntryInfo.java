package io.hpf.format;

import java.util.Map;

/**
 * What is known of an entry without reading its content: the catalog's row for it (FORMAT.md
 * "Catalog"). Immutable.
 *
 * @param name the entry name
 * @param deleted true for a tombstone: the name is deleted as of its segment
 * @param rawLength content bytes after decompression
 * @param storedLength content bytes as stored
 * @param codec how the content is stored
 * @param dictionaryId the zstd dictionary, 0 for none
 * @param mtimeMillis modification time, ms since the epoch
 * @param mode POSIX permission bits
 * @param attributes user attributes
 * @param partId the part file holding the entry
 * @param offset the entry's offset in the part file
 * @param entryLength bytes of the whole entry in the part file
 */
public record EntryInfo(
    String name,
    boolean deleted,
    long rawLength,
    long storedLength,
    Codec codec,
    int dictionaryId,
    long mtimeMillis,
    int mode,
    Map<String, String> attributes,
    int partId,
    long offset,
    long entryLength) {

  public EntryInfo {
    attributes = Attributes.sorted(attributes);
  }

  /** This row with the entry in another part at the same offset (a part file moved in). */
  public EntryInfo inPart(int newPartId) {
    return new EntryInfo(
        name,
        deleted,
        rawLength,
        storedLength,
        codec,
        dictionaryId,
        mtimeMillis,
        mode,
        attributes,
        newPartId,
        offset,
        entryLength);
  }

  /** A tombstone row for a deleted name. */
  public static EntryInfo tombstone(String name) {
    return new EntryInfo(
        name, true, 0, 0, Codec.NONE, 0, 0, 0, Map.of(), FormatConstants.TOMBSTONE_PART_ID, 0, 0);
  }
}
