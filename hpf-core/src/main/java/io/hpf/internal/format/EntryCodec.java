package io.hpf.internal.format;

import io.hpf.archive.model.Attributes;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Encodes and decodes entries (FORMAT.md "Entry"): the header with its CRC32C, then the stored
 * content, then the CRC32C of the raw content. Decoding checks every field and both checksums, so a
 * decoded entry is either exactly what was written or a {@link CorruptArchiveException}.
 */
public final class EntryCodec {
  private EntryCodec() {}

  /**
   * Encodes a header. The header length is computed here.
   *
   * @return the header bytes, ready to be followed by the stored content
   */
  public static ByteWriter encodeHeader(
      byte[] nameUtf8,
      Codec codec,
      int dictionaryId,
      long rawLength,
      long storedLength,
      long mtimeMillis,
      int mode,
      Map<String, String> attributes) {
    return encodeHeader(
        nameUtf8, 0, codec, dictionaryId, rawLength, storedLength, mtimeMillis, mode, attributes);
  }

  /**
   * As {@link #encodeHeader(byte[], Codec, int, long, long, long, int, Map)}, for content stored in
   * chunks of {@code 1 << chunkShift} raw bytes (FORMAT.md "Chunked content"; {@code storedLength}
   * includes the chunk table), or in one piece for {@code chunkShift} 0.
   */
  public static ByteWriter encodeHeader(
      byte[] nameUtf8,
      int chunkShift,
      Codec codec,
      int dictionaryId,
      long rawLength,
      long storedLength,
      long mtimeMillis,
      int mode,
      Map<String, String> attributes) {
    return encodeHeader(
        nameUtf8,
        chunkShift == 0 ? 0 : FormatConstants.ENTRY_FLAG_CHUNKED,
        chunkShift,
        codec,
        dictionaryId,
        rawLength,
        storedLength,
        mtimeMillis,
        mode,
        attributes);
  }

  /**
   * Encodes the header of a group entry (FORMAT.md "Group"): no name, no metadata of its own; its
   * raw content is its members.
   */
  public static ByteWriter encodeGroupHeader(
      Codec codec, int dictionaryId, long rawLength, long storedLength) {
    return encodeHeader(
        new byte[0],
        FormatConstants.ENTRY_FLAG_GROUP,
        0,
        codec,
        dictionaryId,
        rawLength,
        storedLength,
        0,
        0,
        Map.of());
  }

  private static ByteWriter encodeHeader(
      byte[] nameUtf8,
      int flags,
      int chunkShift,
      Codec codec,
      int dictionaryId,
      long rawLength,
      long storedLength,
      long mtimeMillis,
      int mode,
      Map<String, String> attributes) {
    if (nameUtf8.length > FormatConstants.MAX_NAME_BYTES) {
      throw new IllegalArgumentException("name longer than 65535 bytes");
    }
    if (attributes.size() > FormatConstants.MAX_ATTRIBUTES) {
      throw new IllegalArgumentException("more than 65535 attributes");
    }
    ByteWriter out = new ByteWriter(FormatConstants.ENTRY_FIXED_HEADER_BYTES + nameUtf8.length + 8);
    out.u32(FormatConstants.ENTRY_MAGIC);
    out.u32(0); // header length, set below
    out.u8(codec.id());
    out.u8(flags);
    out.u16(nameUtf8.length);
    out.u32(dictionaryId);
    out.u64(rawLength);
    out.u64(storedLength);
    out.u64(mtimeMillis);
    out.u32(mode);
    out.u16(attributes.size());
    out.u16(chunkShift);
    out.bytes(nameUtf8);
    for (Map.Entry<String, String> a : Attributes.sorted(attributes).entrySet()) {
      out.string16(a.getKey());
      byte[] value = a.getValue().getBytes(StandardCharsets.UTF_8);
      out.u32(value.length).bytes(value);
    }
    if (out.size() + 4 > FormatConstants.MAX_ENTRY_HEADER_BYTES) {
      throw new IllegalArgumentException(
          "name and attributes take "
              + (out.size() + 4)
              + " bytes, more than the 1 MiB an entry header may have");
    }
    out.setU32(4, out.size() + 4);
    out.crcOf(0);
    return out;
  }

  /** No file is this large; keeps header + stored + trailer from overflowing a long. */
  private static final long MAX_STORED_LENGTH = 1L << 60;

  /** Bytes of the trailer after the stored content. */
  public static final int TRAILER_BYTES = 4;

  /** The 4-byte trailer: the CRC32C of the raw content. */
  public static byte[] trailer(int contentCrc) {
    return new ByteWriter(4).u32(contentCrc).toByteArray();
  }

  /** CRC32C of {@code bytes[0, length)}. */
  public static int crc32c(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }

  /**
   * Parses and checks the header of the entry at {@code entryOffset} of {@code file}, held in
   * {@code bytes[offset, offset+available)}.
   *
   * @throws CorruptArchiveException if the magic, lengths, name or header CRC are wrong
   */
  public static EntryHeader parseHeader(
      String file, long entryOffset, byte[] bytes, int offset, int available)
      throws CorruptArchiveException {
    return parseHeader(file, entryOffset, bytes, offset, available, null, null);
  }

  /**
   * As {@link #parseHeader(String, long, byte[], int, int)}, for a lookup of a known name: when the
   * stored name's bytes equal {@code expectedUtf8}, {@code expectedName} is used as is instead of
   * decoding the bytes again (the hot path of every get).
   */
  public static EntryHeader parseHeader(
      String file,
      long entryOffset,
      byte[] bytes,
      int offset,
      int available,
      String expectedName,
      byte[] expectedUtf8)
      throws CorruptArchiveException {
    int headerLength = checkFraming(file, entryOffset, bytes, offset, available);
    ByteReader h = new ByteReader(file, entryOffset + 8, bytes, offset + 8, headerLength - 12);
    Codec codec = codec(h, file, entryOffset);
    int flags = flags(h, file, entryOffset);
    boolean group = flags == FormatConstants.ENTRY_FLAG_GROUP;
    boolean chunked = flags == FormatConstants.ENTRY_FLAG_CHUNKED;
    int nameLength = h.u16("name length");
    int dictionaryId = h.u32("dictionary id");
    long rawLength = h.u64("raw length");
    long storedLength = h.u64("stored length");
    long mtime = h.u64("mtime");
    int mode = h.u32("mode");
    int attributeCount = h.u16("attribute count");
    int chunkShift = h.u16("chunk size");
    checkChunkShift(file, entryOffset, chunked, chunkShift);
    checkDictionary(file, entryOffset, dictionaryId, codec);
    String name;
    if (h.nextBytesEqual(nameLength, expectedUtf8)) {
      h.skip(nameLength, "entry name");
      name = expectedName;
    } else {
      name = h.text(nameLength, "entry name");
    }
    Map<String, String> attributes = attributes(h, attributeCount);
    if (h.remaining() != 0) {
      throw h.corrupt(h.remaining() + " unexpected bytes at the end of the entry header");
    }
    checkLengths(file, entryOffset, codec, chunked ? chunkShift : 0, rawLength, storedLength);
    if (group) {
      boolean named = nameLength != 0 || attributeCount != 0 || mtime != 0 || mode != 0;
      checkGroup(file, entryOffset, named, rawLength, storedLength);
    }
    return new EntryHeader(
        name,
        codec,
        dictionaryId,
        rawLength,
        storedLength,
        mtime,
        mode,
        attributes,
        headerLength,
        group,
        chunkShift);
  }

  /**
   * A group's header names nothing and carries no metadata ({@code named}: a name, attributes, an
   * mtime or a mode), and its content is at most 1 MiB raw and stored.
   */
  private static void checkGroup(
      String file, long entryOffset, boolean named, long rawLength, long storedLength)
      throws CorruptArchiveException {
    if (named
        || rawLength > FormatConstants.MAX_GROUP_RAW_BYTES
        || storedLength > FormatConstants.MAX_GROUP_RAW_BYTES) {
      throw new CorruptArchiveException(
          file,
          entryOffset,
          "a group header with a name, metadata or over "
              + FormatConstants.MAX_GROUP_RAW_BYTES
              + " bytes (raw "
              + rawLength
              + ", stored "
              + storedLength
              + ")");
    }
  }

  /**
   * Checks the magic, the header length (bounded by what is available and by the format) and the
   * header's CRC32C; returns the header length.
   */
  private static int checkFraming(
      String file, long entryOffset, byte[] bytes, int offset, int available)
      throws CorruptArchiveException {
    ByteReader in = new ByteReader(file, entryOffset, bytes, offset, available);
    if (in.u32("entry magic") != FormatConstants.ENTRY_MAGIC) {
      throw new CorruptArchiveException(file, entryOffset, "no entry here (bad entry magic)");
    }
    int headerLength = in.count("entry header length");
    int minimum = FormatConstants.ENTRY_FIXED_HEADER_BYTES + 4;
    if (headerLength < minimum
        || headerLength > available
        || headerLength > FormatConstants.MAX_ENTRY_HEADER_BYTES) {
      throw new CorruptArchiveException(
          file,
          entryOffset + 4,
          "entry header length "
              + headerLength
              + " is out of range ("
              + minimum
              + " to "
              + available
              + " bytes available)");
    }
    int expectedCrc = ByteReader.getU32(bytes, offset + headerLength - 4);
    int actualCrc = crc32c(bytes, offset, headerLength - 4);
    FileFraming.checkCrc(file, entryOffset, "entry header", actualCrc, expectedCrc);
    return headerLength;
  }

  private static Codec codec(ByteReader h, String file, long entryOffset)
      throws CorruptArchiveException {
    int codecId = h.u8("codec");
    Codec codec = Codec.byId(codecId);
    if (codec == null) {
      throw new CorruptArchiveException(file, entryOffset + 8, "unknown codec id " + codecId);
    }
    return codec;
  }

  /** The flags: none, a group (bit 0) or chunks (bit 1), never both nor another bit. */
  private static int flags(ByteReader h, String file, long entryOffset)
      throws CorruptArchiveException {
    int flags = h.u8("flags");
    if ((flags & ~(FormatConstants.ENTRY_FLAG_GROUP | FormatConstants.ENTRY_FLAG_CHUNKED)) != 0
        || flags == (FormatConstants.ENTRY_FLAG_GROUP | FormatConstants.ENTRY_FLAG_CHUNKED)) {
      throw new CorruptArchiveException(
          file,
          entryOffset + 9,
          "entry flags " + flags + " (bit 0 for a group or bit 1 for chunks, not both)");
    }
    return flags;
  }

  /** The u16 at offset 46: log2 of the chunk size for chunked content, else reserved (0). */
  private static void checkChunkShift(
      String file, long entryOffset, boolean chunked, int chunkShift)
      throws CorruptArchiveException {
    if (chunked
        ? chunkShift < FormatConstants.MIN_CHUNK_SHIFT
            || chunkShift > FormatConstants.MAX_CHUNK_SHIFT
        : chunkShift != 0) {
      throw new CorruptArchiveException(
          file,
          entryOffset + 46,
          chunked
              ? "chunk size 2^" + chunkShift + " is outside 2^12 to 2^20"
              : "reserved field at entry header offset 46 is " + chunkShift + ", not 0");
    }
  }

  private static void checkDictionary(String file, long entryOffset, int dictionaryId, Codec codec)
      throws CorruptArchiveException {
    if (dictionaryId != 0 && codec != Codec.ZSTD) {
      throw new CorruptArchiveException(
          file,
          entryOffset + 12,
          "dictionary id "
              + Integer.toUnsignedString(dictionaryId)
              + " on an entry stored with "
              + codec.displayName()
              + " (only zstd entries name a dictionary)");
    }
  }

  /** The user attributes, each key once, in stored order. */
  private static Map<String, String> attributes(ByteReader h, int count)
      throws CorruptArchiveException {
    Map<String, String> attributes = count == 0 ? Collections.emptyMap() : new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      String key = h.text(h.u16("attribute key length"), "attribute key");
      if (attributes.put(key, h.text(h.count("attribute value length"), "attribute value"))
          != null) {
        throw h.corrupt("attribute key '" + key + "' twice (each key once)");
      }
    }
    return attributes;
  }

  /**
   * Lengths a codec can produce: not negative, stored within the format's bound, raw content stored
   * as it is, LZ4 within its block bound, chunks each with a stored byte ({@code chunkShift} 0: one
   * piece).
   */
  private static void checkLengths(
      String file, long entryOffset, Codec codec, int chunkShift, long rawLength, long storedLength)
      throws CorruptArchiveException {
    boolean chunked = chunkShift != 0;
    if (rawLength < 0
        || storedLength < 0
        || storedLength > MAX_STORED_LENGTH
        || (chunked
            ? !chunkLengthsPossible(codec, rawLength, storedLength, chunkShift)
            : (codec == Codec.NONE && rawLength != storedLength)
                || (codec == Codec.LZ4 && rawLength > FormatConstants.MAX_LZ4_RAW_BYTES))) {
      throw new CorruptArchiveException(
          file,
          entryOffset + 16,
          "impossible lengths: raw "
              + rawLength
              + ", stored "
              + storedLength
              + ", codec "
              + codec
              + (chunked ? ", chunks of 2^" + chunkShift : ""));
    }
  }

  /**
   * FORMAT.md "Chunked content": at least one chunk, a slot for each in the stored length, at least
   * one stored byte per chunk, and raw chunks stored as they are.
   */
  private static boolean chunkLengthsPossible(
      Codec codec, long rawLength, long storedLength, int chunkShift) {
    if (rawLength == 0) {
      return false;
    }
    long chunks = ((rawLength - 1) >>> chunkShift) + 1;
    if (chunks > Integer.MAX_VALUE) {
      return false;
    }
    long table = chunks * FormatConstants.CHUNK_SLOT_BYTES;
    long area = storedLength - table;
    return codec == Codec.NONE ? area == rawLength : area >= chunks;
  }
}
