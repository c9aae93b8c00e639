package io.hpf.internal.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/** A growable little-endian byte buffer for building file sections. Not thread-safe. */
public final class ByteWriter {
  private byte[] bytes;
  private int size;

  public ByteWriter() {
    this(256);
  }

  public ByteWriter(int initialCapacity) {
    bytes = new byte[Math.max(16, initialCapacity)];
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      long wanted = Math.max((long) bytes.length * 2, (long) size + more);
      if (wanted > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("section larger than 2 GiB");
      }
      bytes = Arrays.copyOf(bytes, (int) wanted);
    }
  }

  public ByteWriter u8(int value) {
    ensure(1);
    bytes[size++] = (byte) value;
    return this;
  }

  public ByteWriter u16(int value) {
    ensure(2);
    bytes[size++] = (byte) value;
    bytes[size++] = (byte) (value >>> 8);
    return this;
  }

  public ByteWriter u32(int value) {
    ensure(4);
    for (int i = 0; i < 4; i++) {
      bytes[size++] = (byte) (value >>> (8 * i));
    }
    return this;
  }

  public ByteWriter u64(long value) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      bytes[size++] = (byte) (value >>> (8 * i));
    }
    return this;
  }

  /** An unsigned LEB128 varint (7 bits a byte, low bits first, high bit = more follows). */
  public ByteWriter varLong(long value) {
    ensure(10);
    long v = value;
    while ((v & ~0x7FL) != 0) {
      bytes[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    bytes[size++] = (byte) v;
    return this;
  }

  /** A zig-zag encoded signed varint, so small negative numbers stay short. */
  public ByteWriter zigZag(long value) {
    return varLong((value << 1) ^ (value >> 63));
  }

  public ByteWriter bytes(byte[] source) {
    return bytes(source, 0, source.length);
  }

  public ByteWriter bytes(byte[] source, int offset, int length) {
    ensure(length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
    return this;
  }

  /** A u16 length then the UTF-8 bytes. */
  public ByteWriter string16(String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    if (utf8.length > 0xFFFF) {
      throw new IllegalArgumentException("string longer than 65535 UTF-8 bytes");
    }
    return u16(utf8.length).bytes(utf8);
  }

  /** Overwrites a u32 at an earlier position (for lengths known only afterwards). */
  public void setU32(int position, int value) {
    for (int i = 0; i < 4; i++) {
      bytes[position + i] = (byte) (value >>> (8 * i));
    }
  }

  /** Appends the CRC32C of bytes [from, size) as a u32. */
  public ByteWriter crcOf(int from) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, size - from);
    return u32((int) crc.getValue());
  }

  public int size() {
    return size;
  }

  public void reset() {
    size = 0;
  }

  /** The internal array; valid up to {@link #size()} until the next write. */
  public byte[] array() {
    return bytes;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }
}
