package io.hpf.server.s3;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Decodes a body sent {@code Content-Encoding: aws-chunked}, as AWS SDKs send uploads: chunks of
 * {@code HEX-SIZE[;chunk-signature=SIG]\r\nDATA\r\n}, a last chunk of size 0, then, with a trailer,
 * {@code name:value\r\n} lines (a checksum, and with signed chunks the trailer's signature) and an
 * empty line. Every size is bounded by what is left of the body and by the decoded length the
 * request announced, which the chunks must add up to exactly.
 */
public final class AwsChunked {
  /** A chunk-size line longer than this is not one (64 hex digits would be absurd already). */
  private static final int MAX_LINE = 256;

  /** At most this many trailing headers. */
  private static final int MAX_TRAILERS = 16;

  /** The content, and the trailing headers by lower-case name. */
  public record Decoded(byte[] content, Map<String, String> trailers) {}

  private final byte[] body;
  private int at;

  private AwsChunked(byte[] body) {
    this.body = body;
  }

  /**
   * @param decodedLength the {@code x-amz-decoded-content-length} announced
   * @param signatures the chunks' signatures to check, or null for unsigned chunks
   */
  public static Decoded decode(byte[] body, long decodedLength, ChunkSignatures signatures)
      throws S3Exception {
    if (decodedLength < 0 || decodedLength > body.length) {
      throw bad("x-amz-decoded-content-length " + decodedLength + " does not fit the body");
    }
    return new AwsChunked(body).read((int) decodedLength, signatures);
  }

  private Decoded read(int decodedLength, ChunkSignatures signatures) throws S3Exception {
    byte[] content = new byte[decodedLength];
    int filled = 0;
    while (true) {
      String line = line();
      int semicolon = line.indexOf(';');
      String hex = semicolon < 0 ? line : line.substring(0, semicolon);
      int size = size(hex.strip(), decodedLength - filled);
      if (size > body.length - at) {
        throw bad("a chunk of " + size + " bytes runs past the end of the body");
      }
      if (signatures != null) {
        signatures.chunk(body, at, size, chunkSignature(line, semicolon));
      }
      System.arraycopy(body, at, content, filled, size);
      filled += size;
      at += size;
      if (size == 0) {
        break;
      }
      if (!line().isEmpty()) {
        throw bad("a chunk is not followed by CRLF");
      }
    }
    if (filled != decodedLength) {
      throw bad(
          "the chunks hold "
              + filled
              + " bytes, x-amz-decoded-content-length says "
              + decodedLength);
    }
    return new Decoded(content, trailers(signatures));
  }

  private static int size(String hex, int left) throws S3Exception {
    if (hex.isEmpty() || hex.length() > 8) {
      throw bad("a chunk size is not a hexadecimal number: '" + hex + "'");
    }
    long size;
    try {
      size = Long.parseLong(hex, 16);
    } catch (NumberFormatException e) {
      throw bad("a chunk size is not a hexadecimal number: '" + hex + "'");
    }
    if (size > left) {
      throw bad("the chunks hold more than x-amz-decoded-content-length says");
    }
    return (int) size;
  }

  private static String chunkSignature(String line, int semicolon) throws S3Exception {
    String prefix = "chunk-signature=";
    if (semicolon < 0 || !line.startsWith(prefix, semicolon + 1)) {
      throw bad("a signed chunk has no chunk-signature");
    }
    return line.substring(semicolon + 1 + prefix.length()).strip();
  }

  /** The trailing headers up to the empty line; with signed chunks, their signature checked. */
  private Map<String, String> trailers(ChunkSignatures signatures) throws S3Exception {
    Map<String, String> trailers = new LinkedHashMap<>();
    StringBuilder canonical = new StringBuilder();
    String trailerSignature = null;
    while (at < body.length) {
      String line = line();
      if (line.isEmpty()) {
        break;
      }
      int colon = line.indexOf(':');
      if (colon <= 0 || trailers.size() == MAX_TRAILERS) {
        throw bad("a trailing header is not 'name:value'");
      }
      String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).strip();
      if (name.equals("x-amz-trailer-signature")) {
        trailerSignature = value;
      } else {
        trailers.put(name, value);
        canonical.append(name).append(':').append(value).append('\n');
      }
    }
    if (at != body.length) {
      throw bad((body.length - at) + " bytes follow the last chunk's trailer");
    }
    if (signatures != null && !trailers.isEmpty()) {
      if (trailerSignature == null) {
        throw bad("signed chunks' trailer has no x-amz-trailer-signature");
      }
      signatures.trailer(canonical.toString(), trailerSignature);
    }
    return trailers;
  }

  /** The next line, without its CRLF. */
  private String line() throws S3Exception {
    int end = at;
    while (end < body.length && body[end] != '\r') {
      if (end - at >= MAX_LINE) {
        throw bad("a chunk header line is longer than " + MAX_LINE + " bytes");
      }
      end++;
    }
    if (end + 1 >= body.length || body[end + 1] != '\n') {
      throw bad("the body ends inside a chunk header");
    }
    String line = new String(body, at, end - at, StandardCharsets.ISO_8859_1);
    at = end + 2;
    return line;
  }

  private static S3Exception bad(String message) {
    return new S3Exception(S3Error.INCOMPLETE_BODY, "aws-chunked body: " + message);
  }
}
