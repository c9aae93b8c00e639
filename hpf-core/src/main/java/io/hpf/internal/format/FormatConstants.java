package io.hpf.internal.format;

import io.hpf.archive.model.EntryInfo;

/**
 * The numbers of the on-disk format. Every constant here is described in {@code docs/FORMAT.md}
 * under the section named in its comment; change both together. All multi-byte integers on disk are
 * little-endian.
 */
public final class FormatConstants {
  private FormatConstants() {}

  /** FORMAT.md "Versions": the version this code writes. */
  public static final int VERSION_CURRENT = 7;

  /** FORMAT.md "Versions": the oldest version this code reads. */
  public static final int VERSION_MIN_READABLE = 1;

  // FORMAT.md "File header": 0x89 'H' 'P' 'F', then a 4-byte ASCII kind, version, reserved.
  public static final int FILE_MAGIC = 0x46_50_48_89;
  public static final int FILE_HEADER_BYTES = 16;
  public static final String KIND_PART = "PART";
  public static final String KIND_BUCKET = "BUCK";
  public static final String KIND_CATALOG = "CATL";
  public static final String KIND_MANIFEST = "MANI";
  public static final String KIND_DICTIONARY = "DICT";
  public static final String KIND_SEGMENT = "SEGM";

  /** FORMAT.md "Versions": the first version whose segments are single segment files. */
  public static final int VERSION_SEGMENT_FILES = 4;

  /** FORMAT.md "Versions": the first version whose manifest records the writer settings. */
  public static final int VERSION_WRITER_SETTINGS = 5;

  /** FORMAT.md "Versions": the first version whose writer settings hold the zstd level. */
  public static final int VERSION_ZSTD_LEVEL = 6;

  /**
   * FORMAT.md "Versions": the first version whose manifest records its part and segment id marks
   * and whose large entries are stored in chunks.
   */
  public static final int VERSION_ID_MARKS = 7;

  // FORMAT.md "File footer": 'H' 'P' 'F' '!' then CRC32C of every byte before the footer.
  public static final int FOOTER_MAGIC = 0x21_46_50_48;
  public static final int FOOTER_BYTES = 8;

  // FORMAT.md "Entry".
  public static final int ENTRY_MAGIC = 0x45_46_50_48; // "HPFE"

  /** Bytes of the entry header before the name. */
  public static final int ENTRY_FIXED_HEADER_BYTES = 48;

  /** The CRC32C of the raw content that follows the stored content. */
  public static final int ENTRY_TRAILER_BYTES = 4;

  /** Entry flag bit 0: the entry is a group whose content holds several small entries. */
  public static final int ENTRY_FLAG_GROUP = 1;

  /** Entry flag bit 1: the content is stored in independent chunks with a chunk table. */
  public static final int ENTRY_FLAG_CHUNKED = 2;

  // FORMAT.md "Chunked content".
  /** The smallest and largest chunk: 4 KiB and 1 MiB of raw bytes (log2). */
  public static final int MIN_CHUNK_SHIFT = 12;

  public static final int MAX_CHUNK_SHIFT = 20;

  /** A chunk table slot: u64 end of the chunk's stored bytes, u32 CRC32C of its raw bytes. */
  public static final int CHUNK_SLOT_BYTES = 12;

  public static final int MAX_NAME_BYTES = 0xFFFF;
  public static final int MAX_ATTRIBUTES = 0xFFFF;

  // FORMAT.md "Limits": what a reader checks before it sizes anything by a length read from disk.
  /** An entry header (name and attributes included) is at most 1 MiB. */
  public static final int MAX_ENTRY_HEADER_BYTES = 1 << 20;

  /** An lz4 entry's raw length is at most 64 MiB: an LZ4 block can only be decoded whole. */
  public static final int MAX_LZ4_RAW_BYTES = 64 << 20;

  /** A group's raw content is at most 1 MiB: readers decompress a group whole. */
  public static final int MAX_GROUP_RAW_BYTES = 1 << 20;

  /** A zstd dictionary is at most 16 MiB. */
  public static final int MAX_DICTIONARY_BYTES = 16 << 20;

  /** A catalog block's raw (decompressed) length is at most 4 MiB. */
  public static final int MAX_CATALOG_BLOCK_RAW_BYTES = 4 << 20;

  // FORMAT.md "Index record".
  public static final int RECORD_BYTES = 32;

  /** Part id of a record that is a tombstone: the name is deleted in this segment. */
  public static final int TOMBSTONE_PART_ID = EntryInfo.TOMBSTONE_PART_ID;

  // FORMAT.md "Name hash": XXH64 of the name's UTF-8 bytes with seed 0.
  public static final long NAME_HASH_SEED = 0L;
  public static final int NAME_HASH_XXH64 = 1;

  /**
   * FORMAT.md "Directory": a directory never has more than 2^24 pointers, nor all the directories
   * of a manifest together (a reader expands each into an array of its pointers).
   */
  public static final int MAX_GLOBAL_DEPTH = 24;

  public static final int MAX_MANIFEST_POINTERS = 1 << MAX_GLOBAL_DEPTH;

  /** FORMAT.md "Limits": a manifest is read whole, so it is at most 16 MiB. */
  public static final int MAX_MANIFEST_BYTES = 16 << 20;

  // FORMAT.md "File names": the grammar is FileNames.
}
