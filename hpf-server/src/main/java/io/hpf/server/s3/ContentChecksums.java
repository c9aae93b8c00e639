package io.hpf.server.s3;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * The digests an upload may carry, checked against the content received before anything is written:
 * {@code Content-MD5} and the {@code x-amz-checksum-*} of S3's additional checksums (sent as
 * headers, or as trailing headers of an {@code aws-chunked} body), each base64 of the big-endian
 * digest. An algorithm the server cannot compute is refused, never taken unchecked.
 */
public final class ContentChecksums {
  private static final String PREFIX = "x-amz-checksum-";

  private ContentChecksums() {}

  /**
   * Checks every digest sent; returns the {@code x-amz-checksum-*} headers to echo in the response.
   *
   * @param header a request header by lower-case name, or null
   * @param trailers trailing headers by lower-case name
   */
  public static Map<String, String> check(
      byte[] content, Function<String, String> header, Map<String, String> trailers)
      throws S3Exception {
    String md5 = header.apply("content-md5");
    if (md5 != null) {
      compare("Content-MD5", md5, digest("MD5", content), S3Error.INVALID_DIGEST);
    }
    Map<String, String> sent = new LinkedHashMap<>();
    for (String algorithm : new String[] {"crc32", "crc32c", "sha1", "sha256", "crc64nvme"}) {
      String value = header.apply(PREFIX + algorithm);
      if (value == null) {
        value = trailers.get(PREFIX + algorithm);
      }
      if (value != null) {
        compare(PREFIX + algorithm, value, compute(algorithm, content), S3Error.BAD_DIGEST);
        sent.put(PREFIX + algorithm, value);
      }
    }
    return sent;
  }

  private static byte[] compute(String algorithm, byte[] content) throws S3Exception {
    if (algorithm.equals("crc32")) {
      CRC32 c = new CRC32();
      c.update(content);
      return int32(c.getValue());
    }
    if (algorithm.equals("crc32c")) {
      CRC32C c = new CRC32C();
      c.update(content);
      return int32(c.getValue());
    }
    if (algorithm.equals("sha1")) {
      return digest("SHA-1", content);
    }
    if (algorithm.equals("sha256")) {
      return digest("SHA-256", content);
    }
    throw new S3Exception(
        S3Error.INVALID_REQUEST,
        PREFIX + algorithm + " is not supported here: send CRC32, CRC32C, SHA1 or SHA256");
  }

  private static void compare(String name, String base64, byte[] actual, S3Error malformed)
      throws S3Exception {
    byte[] given;
    try {
      given = Base64.getDecoder().decode(base64.strip());
    } catch (IllegalArgumentException e) {
      throw new S3Exception(malformed, name + " is not base64: '" + base64 + "'");
    }
    if (given.length != actual.length) {
      throw new S3Exception(malformed, name + " is not a digest of " + actual.length + " bytes");
    }
    if (!MessageDigest.isEqual(given, actual)) {
      throw new S3Exception(
          S3Error.BAD_DIGEST, "the " + name + " sent does not match the content received");
    }
  }

  private static byte[] int32(long v) {
    return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
  }

  private static byte[] digest(String algorithm, byte[] content) {
    try {
      return MessageDigest.getInstance(algorithm).digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this Java has no " + algorithm, e);
    }
  }
}
