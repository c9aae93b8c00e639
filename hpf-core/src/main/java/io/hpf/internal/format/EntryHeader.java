package io.hpf.internal.format;

import io.hpf.archive.model.Codec;
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
 * @param chunkShift for content stored in independent chunks (FORMAT.md "Chunked content"), log2 of
 *     the raw bytes per chunk; 0 for content stored as one piece
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
    boolean group,
    int chunkShift) {

  /** Whether the content is stored in independent chunks, each with its own CRC32C. */
  public boolean chunked() {
    return chunkShift != 0;
  }

  /** Raw bytes per chunk (the last may be shorter); only for chunked content. */
  public int chunkSize() {
    return 1 << chunkShift;
  }

  /** How many chunks chunked content has: the raw length over the chunk size, rounded up. */
  public int chunkCount() {
    return (int) ((rawLength + chunkSize() - 1) >>> chunkShift);
  }

  /** Bytes of the chunk table at the end of chunked content: one slot per chunk. */
  public long chunkTableLength() {
    return (long) chunkCount() * FormatConstants.CHUNK_SLOT_BYTES;
  }

  /** Bytes of the whole entry: header, stored content and the content CRC trailer. */
  public long entryLength() {
    return headerLength + storedLength + FormatConstants.ENTRY_TRAILER_BYTES;
  }
}
