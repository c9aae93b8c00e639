package io.hpf.internal.format;

import io.hpf.archive.model.EntryInfo;

/**
 * An entry found in a part file: where it starts and its checked header. Its content is read
 * through the {@link EntryReader} that found it. An entry inside a group (FORMAT.md "Group") is
 * found at its group's offset, and carries the group, already decompressed and checked.
 *
 * @param offset the first byte in the part file of the entry, or of the group holding it
 * @param header the parsed header, its checksum checked (a member's header is its member header)
 * @param group the group holding the entry, or null for an entry on its own
 * @param member the entry's index among the group's members (0 when on its own)
 */
public record PartEntry(long offset, EntryHeader header, EntryGroup group, int member) {
  /** An entry on its own. */
  public PartEntry(long offset, EntryHeader header) {
    this(offset, header, null, 0);
  }

  /** Whether the entry is a member of a group. */
  public boolean inGroup() {
    return group != null;
  }

  /** How many members its group has, 0 for an entry on its own (as a catalog row says). */
  public int members() {
    return group != null ? group.size() : 0;
  }

  /** Bytes of the whole entry in the part file; for a member, of its whole group. */
  public long length() {
    return group != null ? group.length() : header.entryLength();
  }

  /** The offset just past the entry (or its group). */
  public long end() {
    return offset + length();
  }

  /** The catalog-style row of this entry, found in part {@code partId}. */
  public EntryInfo info(int partId) {
    EntryHeader h = header;
    return new EntryInfo(
        h.name(),
        false,
        h.rawLength(),
        h.storedLength(),
        h.codec(),
        h.dictionaryId(),
        h.mtimeMillis(),
        h.mode(),
        h.attributes(),
        partId,
        offset,
        length(),
        member,
        members());
  }
}
