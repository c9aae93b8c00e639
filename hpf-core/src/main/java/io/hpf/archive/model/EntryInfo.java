package io.hpf.archive.model;

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
 * @param offset the entry's offset in the part file (for a member of a group, the group's)
 * @param entryLength bytes of the whole entry in the part file (for a member, of its group)
 * @param member for a member of a group, its index among the group's members; else 0
 * @param members for a member of a group, how many members the group has; 0 for an entry on its own
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
    long entryLength,
    int member,
    int members) {

  /** The largest content readers take whole ({@link #isReadWhole()}): 1 MiB. */
  public static final int READ_WHOLE_MAX_BYTES = 1 << 20;

  /** The part id of a tombstone's row, which names no part (FORMAT.md "Catalog"). */
  public static final int TOMBSTONE_PART_ID = -1;

  /**
   * An entry header's fixed part (FORMAT.md "Entry"), as FormatConstants says (FormatUnitsTest).
   */
  private static final int ENTRY_FIXED_HEADER_BYTES = 48;

  public EntryInfo {
    attributes = Attributes.sorted(attributes);
  }

  /**
   * Whether readers take this entry's content whole, checked before any byte is handed out, rather
   * than as a stream: content up to 1 MiB, which is stored in one piece and read at little cost.
   * Larger content is streamed: chunked content (FORMAT.md "Chunked content") decodes and checks
   * only the chunks a read touches, whatever its codec, so damage in one chunk fails only the reads
   * of that chunk. The one rule hpf://, Spark and the mount follow to choose between {@code
   * ArchiveReader.get} and {@code ArchiveReader.openStream}.
   */
  public boolean isReadWhole() {
    return rawLength <= READ_WHOLE_MAX_BYTES;
  }

  /** Whether the entry is a member of a group (FORMAT.md "Group"). */
  public boolean inGroup() {
    return members > 0;
  }

  /**
   * The stored content this entry accounts for: its stored length, or for a member of a group an
   * equal share of the group's stored content (the group's entry less its header, which names
   * nothing and so is the fixed part and its CRC32C, and the content's CRC32C). A member's row
   * gives its raw length as its stored length (FORMAT.md "Catalog"), which says nothing of what the
   * group's compression saved.
   */
  public long storedShare() {
    return members == 0
        ? storedLength
        : share(Math.max(0, entryLength - ENTRY_FIXED_HEADER_BYTES - 8));
  }

  /**
   * The part-file bytes this entry accounts for (FORMAT.md "Manifest", live entry bytes): its
   * length, or for a member an equal share of its group.
   */
  public long accountedBytes() {
    return members == 0 ? entryLength : share(entryLength);
  }

  /**
   * This member's share of {@code total} bytes of its group: equal shares, the remainder going to
   * the first members, so that the shares of a group sum to {@code total} exactly.
   */
  private long share(long total) {
    return total / members + (member < total % members ? 1 : 0);
  }

  /** This row with the entry in another part at the same offset (a part file moved in). */
  public EntryInfo inPart(int newPartId) {
    return movedTo(newPartId, offset);
  }

  /** This row with the entry (or its group) at another place (a part file joined to another). */
  public EntryInfo movedTo(int newPartId, long newOffset) {
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
        newOffset,
        entryLength,
        member,
        members);
  }

  /** A tombstone row for a deleted name. */
  public static EntryInfo tombstone(String name) {
    return new EntryInfo(
        name, true, 0, 0, Codec.NONE, 0, 0, 0, Map.of(), TOMBSTONE_PART_ID, 0, 0, 0, 0);
  }
}
