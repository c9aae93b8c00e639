package io.hpf.server.s3;

import java.util.zip.CRC32C;

/**
 * ETags as this server gives them: the CRC32C of the content in quoted hex, the same for an object
 * however it was written and however it is read (S3 gives an MD5, or for a multipart upload an MD5
 * of MD5s; clients compare ETags, they do not recompute them).
 */
public final class Etags {
  private Etags() {}

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** The ETag of content whose CRC32C is {@code crc}. */
  public static String ofCrc(int crc) {
    char[] out = new char[10];
    out[0] = '"';
    for (int i = 0; i < 8; i++) {
      out[1 + i] = HEX[(crc >>> (28 - 4 * i)) & 0xf];
    }
    out[9] = '"';
    return new String(out);
  }

  public static String of(byte[] content) {
    CRC32C crc = new CRC32C();
    crc.update(content);
    return ofCrc((int) crc.getValue());
  }

  /** Whether two ETags are the same, quoted or not (clients send them either way). */
  public static boolean same(String a, String b) {
    return unquoted(a).equals(unquoted(b));
  }

  private static String unquoted(String tag) {
    String t = tag.strip();
    return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")
        ? t.substring(1, t.length() - 1)
        : t;
  }
}
