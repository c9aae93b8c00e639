package io.hpf.internal.format;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.UnsupportedVersionException;
import io.hpf.store.ReadableFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * Writes and checks the header every archive file starts with and the footer every file but a part
 * file ends with (FORMAT.md "File header", "File footer"). The one place that knows those bytes, as
 * Lucene's CodecUtil is for Lucene's files.
 */
public final class FileFraming {
  private FileFraming() {}

  /** Appends the 16-byte header: magic, kind, version, reserved. */
  public static void writeHeader(ByteWriter out, String kind) {
    out.u32(FormatConstants.FILE_MAGIC);
    out.bytes(kindBytes(kind));
    out.u32(FormatConstants.VERSION_CURRENT);
    out.u32(0);
  }

  public static byte[] header(String kind) {
    ByteWriter out = new ByteWriter(FormatConstants.FILE_HEADER_BYTES);
    writeHeader(out, kind);
    return out.toByteArray();
  }

  private static byte[] kindBytes(String kind) {
    byte[] bytes = kind.getBytes(StandardCharsets.US_ASCII);
    if (bytes.length != 4) {
      throw new IllegalArgumentException("file kind must be 4 ASCII bytes: " + kind);
    }
    return bytes;
  }

  /**
   * Checks the header at {@code bytes[offset]} and returns the file's format version.
   *
   * @throws CorruptArchiveException on a bad magic number or kind, or a short file
   * @throws UnsupportedVersionException if the version is newer than this code reads
   */
  public static int checkHeader(String file, byte[] bytes, int offset, int length, String kind)
      throws CorruptArchiveException {
    if (length < FormatConstants.FILE_HEADER_BYTES) {
      throw new CorruptArchiveException(
          file,
          0,
          "file is "
              + length
              + " bytes, shorter than the "
              + FormatConstants.FILE_HEADER_BYTES
              + "-byte header");
    }
    if (ByteReader.getU32(bytes, offset) != FormatConstants.FILE_MAGIC) {
      throw new CorruptArchiveException(file, 0, "not an hpf file (bad magic number)");
    }
    String actualKind = new String(bytes, offset + 4, 4, StandardCharsets.ISO_8859_1);
    if (!actualKind.equals(kind)) {
      throw new CorruptArchiveException(
          file, 4, "file kind is '" + printable(actualKind) + "', expected '" + kind + "'");
    }
    int version = ByteReader.getU32(bytes, offset + 8);
    if (version < FormatConstants.VERSION_MIN_READABLE
        || version > FormatConstants.VERSION_CURRENT) {
      throw new UnsupportedVersionException(
          file, version, FormatConstants.VERSION_MIN_READABLE, FormatConstants.VERSION_CURRENT);
    }
    int reserved = ByteReader.getU32(bytes, offset + 12);
    if (reserved != 0) {
      throw new CorruptArchiveException(
          file,
          12,
          String.format(Locale.ROOT, "reserved header word is %08x, expected 0", reserved));
    }
    return version;
  }

  private static String printable(String s) {
    StringBuilder out = new StringBuilder();
    for (char c : s.toCharArray()) {
      out.append(
          c >= 0x20 && c < 0x7F
              ? String.valueOf(c)
              : String.format(Locale.ROOT, "\\x%02x", (int) c));
    }
    return out.toString();
  }

  /** Appends the footer: its magic and the CRC32C of every byte written before it. */
  public static void writeFooter(ByteWriter out) {
    CRC32C crc = new CRC32C();
    crc.update(out.array(), 0, out.size());
    out.bytes(footer((int) crc.getValue()));
  }

  /**
   * The footer of a file whose bytes before it have the CRC32C {@code crc}: the one way every
   * writer ends a file (FORMAT.md "Files").
   */
  public static byte[] footer(int crc) {
    ByteWriter footer = new ByteWriter(FormatConstants.FOOTER_BYTES);
    footer.u32(FormatConstants.FOOTER_MAGIC).u32(crc);
    return footer.toByteArray();
  }

  /**
   * Throws unless a checksum holds, in the one form every checksum error takes: "{@code what}
   * checksum mismatch (CRC32C actual, stored expected)", at {@code offset} of {@code file}.
   */
  public static void checkCrc(String file, long offset, String what, int actual, int stored)
      throws CorruptArchiveException {
    if (actual != stored) {
      throw new CorruptArchiveException(
          file,
          offset,
          String.format(
              java.util.Locale.ROOT,
              "%s checksum mismatch (CRC32C %08x, stored %08x)",
              what,
              actual,
              stored));
    }
  }

  /**
   * Checks the magic of the footer held at {@code bytes[at]}, which lies at {@code fileOffset} of
   * {@code file}, for a reader that checks the CRC32C later (or by parts, as a catalog's blocks).
   */
  public static void checkFooterMagic(String file, byte[] bytes, int at, long fileOffset)
      throws CorruptArchiveException {
    if (ByteReader.getU32(bytes, at) != FormatConstants.FOOTER_MAGIC) {
      throw new CorruptArchiveException(file, fileOffset, "bad footer magic number");
    }
  }

  /**
   * Checks the footer of a whole file held in {@code bytes[0, length)}: its magic and the CRC32C of
   * everything before it.
   */
  public static int checkFooter(String file, byte[] bytes, int length)
      throws CorruptArchiveException {
    return checkFooter(file, bytes, 0, length);
  }

  /**
   * Checks the footer of a file held in {@code bytes[offset, offset + length)} (a section of a
   * segment file is a file of its own kind); offsets in messages count from {@code offset}. Returns
   * the CRC32C the footer holds, now checked.
   */
  public static int checkFooter(String file, byte[] bytes, int offset, int length)
      throws CorruptArchiveException {
    int footerAt = (int) footerAt(file, length);
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, footerAt);
    return checkFooterBytes(file, bytes, offset + footerAt, footerAt, (int) crc.getValue());
  }

  /**
   * As {@link #checkFooter(String, byte[], int, int)}, of the {@code length} bytes at {@code
   * offset} of {@code in}, read a MiB at a time: a file of any size is checked in that memory.
   */
  public static int checkFooter(String file, ReadableFile in, long offset, long length)
      throws IOException {
    long footerAt = footerAt(file, length);
    byte[] buffer = new byte[(int) Math.min(footerAt, 1 << 20)];
    CRC32C crc = new CRC32C();
    for (long done = 0; done < footerAt; ) {
      int n = (int) Math.min(buffer.length, footerAt - done);
      in.readFully(offset + done, buffer, 0, n);
      crc.update(buffer, 0, n);
      done += n;
    }
    byte[] footer = in.readFully(offset + footerAt, FormatConstants.FOOTER_BYTES);
    return checkFooterBytes(file, footer, 0, footerAt, (int) crc.getValue());
  }

  /** Where the footer of a file (or section) of {@code length} bytes starts. */
  private static long footerAt(String file, long length) throws CorruptArchiveException {
    long footerAt = length - FormatConstants.FOOTER_BYTES;
    if (footerAt < FormatConstants.FILE_HEADER_BYTES) {
      throw new CorruptArchiveException(
          file, 0, "file is " + length + " bytes, too short for a header and a footer");
    }
    return footerAt;
  }

  /** Checks the footer held at {@code bytes[at]}, which is at {@code footerAt} of the file. */
  private static int checkFooterBytes(String file, byte[] bytes, int at, long footerAt, int actual)
      throws CorruptArchiveException {
    if (ByteReader.getU32(bytes, at) != FormatConstants.FOOTER_MAGIC) {
      throw new CorruptArchiveException(
          file, footerAt, "bad footer magic number (file truncated or overwritten?)");
    }
    int expected = ByteReader.getU32(bytes, at + 4);
    if (actual != expected) {
      throw new CorruptArchiveException(
          file,
          footerAt + 4,
          String.format(
              Locale.ROOT,
              "file checksum mismatch: CRC32C of bytes 0..%d is %08x, footer says %08x",
              footerAt,
              actual,
              expected));
    }
    return expected;
  }
}
