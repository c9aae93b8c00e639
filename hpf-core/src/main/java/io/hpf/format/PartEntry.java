package io.hpf.format;

/**
 * An entry found in a part file: where it starts and its checked header. Its content is read
 * through the {@link EntryReader} that found it.
 *
 * @param offset the entry's first byte in the part file
 * @param header the parsed header, its checksum checked
 */
public record PartEntry(long offset, EntryHeader header) {
  /** Bytes of the whole entry. */
  public long length() {
    return header.entryLength();
  }

  /** The offset just past the entry. */
  public long end() {
    return offset + header.entryLength();
  }
}
