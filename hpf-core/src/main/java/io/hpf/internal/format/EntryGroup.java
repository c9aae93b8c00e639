package io.hpf.internal.format;

import io.hpf.archive.model.Attributes;
import io.hpf.archive.model.CorruptArchiveException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A group entry decompressed and checked (FORMAT.md "Group"): small entries stored together in one
 * compressed frame, so that a few hundred bytes of content do not each pay a frame and a header.
 * The members' places are parsed once, every length bounded by the bytes left; a member's name and
 * attributes are decoded only when it is asked for. Immutable, so a reader may cache it and share
 * it between threads.
 */
public final class EntryGroup {
  private final String path;
  private final long offset;
  private final EntryHeader header;
  private final byte[] raw;
  private final int[] nameAt;
  private final int[] nameLength;
  private final int[] contentAt;
  private final int[] contentLength;

  private EntryGroup(
      String path,
      long offset,
      EntryHeader header,
      byte[] raw,
      int[] nameAt,
      int[] nameLength,
      int[] contentAt,
      int[] contentLength) {
    this.path = path;
    this.offset = offset;
    this.header = header;
    this.raw = raw;
    this.nameAt = nameAt;
    this.nameLength = nameLength;
    this.contentAt = contentAt;
    this.contentLength = contentLength;
  }

  /**
   * Appends one member to a group's raw content: its member header, then its content.
   *
   * @param attributes written in byte order of their keys, so equal input gives equal bytes
   */
  public static void encodeMember(
      ByteWriter out,
      byte[] nameUtf8,
      byte[] content,
      int length,
      long mtimeMillis,
      int mode,
      Map<String, String> attributes) {
    out.varLong(nameUtf8.length).bytes(nameUtf8);
    out.varLong(length).zigZag(mtimeMillis).varLong(mode & 0xFFFFFFFFL);
    out.varLong(attributes.size());
    for (Map.Entry<String, String> a : Attributes.sorted(attributes).entrySet()) {
      byte[] k = a.getKey().getBytes(StandardCharsets.UTF_8);
      byte[] v = a.getValue().getBytes(StandardCharsets.UTF_8);
      out.varLong(k.length).bytes(k).varLong(v.length).bytes(v);
    }
    out.bytes(content, 0, length);
  }

  /**
   * Parses the members of a group whose raw content (decompressed, its CRC32C checked) is {@code
   * raw}.
   *
   * @throws CorruptArchiveException if a member runs past the content or a length is impossible
   */
  public static EntryGroup decode(String path, long offset, EntryHeader header, byte[] raw)
      throws CorruptArchiveException {
    // Offsets in messages are of the group's raw content, as a catalog block's are of its rows.
    ByteReader in = new ByteReader(where(path, offset), 0, raw);
    int capacity = 8;
    int[] nameAt = new int[capacity];
    int[] nameLength = new int[capacity];
    int[] contentAt = new int[capacity];
    int[] contentLength = new int[capacity];
    int count = 0;
    while (in.remaining() > 0) {
      if (count == capacity) {
        capacity *= 2;
        nameAt = Arrays.copyOf(nameAt, capacity);
        nameLength = Arrays.copyOf(nameLength, capacity);
        contentAt = Arrays.copyOf(contentAt, capacity);
        contentLength = Arrays.copyOf(contentLength, capacity);
      }
      int n = in.varInt("member name length");
      if (n > FormatConstants.MAX_NAME_BYTES) {
        throw in.corrupt("member name of " + n + " bytes (at most 65535)");
      }
      nameAt[count] = in.arrayPosition();
      nameLength[count] = n;
      in.skip(n, "member name");
      int length = in.varInt("member raw length");
      in.zigZag("member mtime");
      memberMode(in);
      int attributes = in.varInt("member attribute count");
      for (int a = 0; a < attributes; a++) {
        in.skip(in.varInt("attribute key length"), "attribute key");
        in.skip(in.varInt("attribute value length"), "attribute value");
      }
      contentAt[count] = in.arrayPosition();
      contentLength[count] = length;
      in.skip(length, "member content");
      count++;
    }
    if (count == 0) {
      throw new CorruptArchiveException(path, offset, "a group with no members");
    }
    return new EntryGroup(
        path,
        offset,
        header,
        raw,
        Arrays.copyOf(nameAt, count),
        Arrays.copyOf(nameLength, count),
        Arrays.copyOf(contentAt, count),
        Arrays.copyOf(contentLength, count));
  }

  /** How messages place a group's raw bytes: offsets are of its decompressed content. */
  private static String where(String path, long offset) {
    return path + " (group at " + offset + ")";
  }

  /** The group's offset in its part file. */
  public long offset() {
    return offset;
  }

  /** Bytes of the whole group entry in the part file. */
  public long length() {
    return header.entryLength();
  }

  public int size() {
    return nameAt.length;
  }

  /** The member of this name, or null. Compares bytes: no name but the one found is decoded. */
  public PartEntry find(byte[] nameUtf8) throws CorruptArchiveException {
    for (int i = 0; i < nameAt.length; i++) {
      if (nameLength[i] == nameUtf8.length
          && Arrays.equals(
              raw, nameAt[i], nameAt[i] + nameLength[i], nameUtf8, 0, nameUtf8.length)) {
        return member(i);
      }
    }
    return null;
  }

  /** Member {@code i} with its header decoded (name and attributes as strict UTF-8). */
  public PartEntry member(int i) throws CorruptArchiveException {
    // Only the member's header, which decode() bounded already: never past it into the content.
    ByteReader in =
        new ByteReader(where(path, offset), nameAt[i], raw, nameAt[i], contentAt[i] - nameAt[i]);
    String name = in.text(nameLength[i], "member name");
    long length = in.varLong("member raw length");
    long mtime = in.zigZag("member mtime");
    int mode = memberMode(in);
    int count = in.varInt("member attribute count");
    Map<String, String> attributes = count == 0 ? Collections.emptyMap() : new LinkedHashMap<>();
    for (int a = 0; a < count; a++) {
      String key = in.text(in.varInt("attribute key length"), "attribute key");
      if (attributes.put(key, in.text(in.varInt("attribute value length"), "attribute value"))
          != null) {
        throw in.corrupt("attribute key '" + key + "' twice (each key once)");
      }
    }
    EntryHeader memberHeader =
        new EntryHeader(
            name,
            header.codec(),
            header.dictionaryId(),
            length,
            length,
            mtime,
            mode,
            attributes,
            contentAt[i] - nameAt[i],
            false,
            0);
    return new PartEntry(offset, memberHeader, this, i);
  }

  /** A member's mode: a u32 as an entry header's, so a varint of at most 32 bits. */
  private static int memberMode(ByteReader in) throws CorruptArchiveException {
    long mode = in.varLong("member mode");
    if (mode < 0 || mode > 0xFFFF_FFFFL) {
      throw in.corrupt("member mode " + Long.toUnsignedString(mode) + " is over 32 bits");
    }
    return (int) mode;
  }

  /** A copy of member {@code i}'s content (checked with the group). */
  public byte[] content(int i) {
    return Arrays.copyOfRange(raw, contentAt[i], contentAt[i] + contentLength[i]);
  }

  /** The CRC32C of member {@code i}'s content: what an entry on its own stores in its trailer. */
  public int contentCrc(int i) {
    return EntryCodec.crc32c(raw, contentAt[i], contentLength[i]);
  }
}
