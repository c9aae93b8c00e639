package io.hpf.internal.format;

import io.hpf.archive.model.CorruptArchiveException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads little-endian fields from a byte array that holds part of a file, checking every bound: a
 * field that runs past the end is a {@link CorruptArchiveException} naming the file and the offset
 * in the file, never an {@link ArrayIndexOutOfBoundsException}. Not thread-safe.
 */
public final class ByteReader {
  /** Strict decoders are costly to make; one per thread, reset before each use. */
  private static final ThreadLocal<CharsetDecoder> STRICT_UTF8 =
      ThreadLocal.withInitial(
          () ->
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT));

  private final String file;
  private final long fileOffset;
  private final byte[] bytes;
  private final int start;
  private final int end;
  private int position;

  /**
   * @param file the file's name for messages
   * @param fileOffset the offset in the file of {@code bytes[start]}
   */
  public ByteReader(String file, long fileOffset, byte[] bytes, int start, int length) {
    this.file = file;
    this.fileOffset = fileOffset;
    this.bytes = bytes;
    this.start = start;
    this.end = start + length;
    this.position = start;
  }

  public ByteReader(String file, long fileOffset, byte[] bytes) {
    this(file, fileOffset, bytes, 0, bytes.length);
  }

  public String file() {
    return file;
  }

  /** The offset in the file of the next byte to read. */
  public long fileOffset() {
    return fileOffset + (position - start);
  }

  /** The index in the array of the next byte to read. */
  public int arrayPosition() {
    return position;
  }

  public int remaining() {
    return end - position;
  }

  public byte[] array() {
    return bytes;
  }

  private void need(int count, String what) throws CorruptArchiveException {
    if (count < 0 || end - position < count) {
      throw corrupt(what + " needs " + count + " bytes, only " + (end - position) + " left");
    }
  }

  public CorruptArchiveException corrupt(String problem) {
    return new CorruptArchiveException(file, fileOffset(), problem);
  }

  public int u8(String what) throws CorruptArchiveException {
    need(1, what);
    return bytes[position++] & 0xFF;
  }

  public int u16(String what) throws CorruptArchiveException {
    need(2, what);
    int v = (bytes[position] & 0xFF) | (bytes[position + 1] & 0xFF) << 8;
    position += 2;
    return v;
  }

  public int u32(String what) throws CorruptArchiveException {
    need(4, what);
    int v = getU32(bytes, position);
    position += 4;
    return v;
  }

  /** A u32 that must fit a non-negative int (a count or a length). */
  public int count(String what) throws CorruptArchiveException {
    long startOffset = fileOffset();
    int v = u32(what);
    if (v < 0) {
      throw new CorruptArchiveException(
          file, startOffset, what + " " + Integer.toUnsignedString(v) + " is out of range");
    }
    return v;
  }

  public long u64(String what) throws CorruptArchiveException {
    need(8, what);
    long v = getU64(bytes, position);
    position += 8;
    return v;
  }

  public long varLong(String what) throws CorruptArchiveException {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = u8(what);
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw corrupt(what + ": varint longer than 10 bytes");
  }

  /** A varint that must fit a non-negative int. */
  public int varInt(String what) throws CorruptArchiveException {
    long startOffset = fileOffset();
    long v = varLong(what);
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new CorruptArchiveException(
          file, startOffset, what + " " + Long.toUnsignedString(v) + " is out of range");
    }
    return (int) v;
  }

  public long zigZag(String what) throws CorruptArchiveException {
    long v = varLong(what);
    return (v >>> 1) ^ -(v & 1);
  }

  public byte[] bytes(int count, String what) throws CorruptArchiveException {
    need(count, what);
    byte[] out = new byte[count];
    System.arraycopy(bytes, position, out, 0, count);
    position += count;
    return out;
  }

  public void skip(int count, String what) throws CorruptArchiveException {
    need(count, what);
    position += count;
  }

  /** Decodes {@code count} bytes as strict UTF-8: malformed bytes are corruption. */
  public String utf8(int count, String what) throws CorruptArchiveException {
    need(count, what);
    boolean ascii = true;
    for (int i = position; i < position + count && ascii; i++) {
      ascii = bytes[i] >= 0;
    }
    if (ascii) { // the common case, and valid UTF-8 by definition
      String s = new String(bytes, position, count, StandardCharsets.US_ASCII);
      position += count;
      return s;
    }
    try {
      CharsetDecoder decoder = STRICT_UTF8.get().reset();
      String s = decoder.decode(ByteBuffer.wrap(bytes, position, count)).toString();
      position += count;
      return s;
    } catch (CharacterCodingException e) {
      throw corrupt(what + " is not valid UTF-8");
    }
  }

  /**
   * The next {@code count} bytes as text read from an archive (a name, an attribute): UTF-8, with
   * each byte that is not part of valid UTF-8 kept as the character U+DC00 + byte (FORMAT.md "Entry
   * names"; {@link EntryNames#utf8} gives the bytes back), so that one such name never stops a
   * reader from listing or reading the rest.
   */
  public String text(int count, String what) throws CorruptArchiveException {
    int start = position;
    try {
      return utf8(count, what);
    } catch (CorruptArchiveException notUtf8) {
      position = start;
    }
    need(count, what);
    StringBuilder out = new StringBuilder(count);
    CharsetDecoder decoder = STRICT_UTF8.get().reset();
    ByteBuffer in = ByteBuffer.wrap(bytes, position, count);
    java.nio.CharBuffer chars = java.nio.CharBuffer.allocate(count);
    while (true) {
      java.nio.charset.CoderResult r = decoder.decode(in, chars, true);
      chars.flip();
      out.append(chars);
      chars.clear();
      if (r.isUnderflow()) {
        break;
      }
      for (int i = 0; i < r.length(); i++) { // malformed: each byte kept as an escape
        out.append((char) (0xDC00 + (in.get() & 0xFF)));
      }
    }
    position += count;
    return out.toString();
  }

  /** Whether the next {@code count} bytes equal {@code expected}. */
  public boolean nextBytesEqual(int count, byte[] expected) {
    return expected != null
        && count == expected.length
        && end - position >= count
        && java.util.Arrays.equals(bytes, position, position + count, expected, 0, count);
  }

  public String string16(String what) throws CorruptArchiveException {
    return utf8(u16(what + " length"), what);
  }

  public static int getU32(byte[] b, int i) {
    return (b[i] & 0xFF)
        | (b[i + 1] & 0xFF) << 8
        | (b[i + 2] & 0xFF) << 16
        | (b[i + 3] & 0xFF) << 24;
  }

  /** One call, not two: a reader's first open runs loops of these interpreted (a cold JVM). */
  public static long getU64(byte[] b, int i) {
    return (b[i] & 0xFFL)
        | (b[i + 1] & 0xFFL) << 8
        | (b[i + 2] & 0xFFL) << 16
        | (b[i + 3] & 0xFFL) << 24
        | (b[i + 4] & 0xFFL) << 32
        | (b[i + 5] & 0xFFL) << 40
        | (b[i + 6] & 0xFFL) << 48
        | (b[i + 7] & 0xFFL) << 56;
  }
}
