package io.hpf.server.s3;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The signatures of an {@code aws-chunked} body sent with signed chunks ({@code
 * STREAMING-AWS4-HMAC-SHA256-PAYLOAD}, with {@code -TRAILER} its trailing headers too): each
 * chunk's signature chains from the one before, starting at the request's own, so that no chunk can
 * be changed, dropped or reordered. Not thread-safe: one body's chunks, in order.
 */
public final class ChunkSignatures {
  private final byte[] signingKey;
  private final String amzDate;
  private final String scope;
  private String previous;

  ChunkSignatures(byte[] signingKey, String amzDate, String scope, String seedSignature) {
    this.signingKey = signingKey;
    this.amzDate = amzDate;
    this.scope = scope;
    this.previous = seedSignature;
  }

  /** Checks the signature of the next chunk (the last one is empty). */
  public void chunk(byte[] data, int offset, int length, String signature) throws S3Exception {
    MessageDigest sha = SignatureV4.sha256();
    sha.update(data, offset, length);
    check(
        "AWS4-HMAC-SHA256-PAYLOAD",
        SignatureV4.EMPTY_SHA256 + '\n' + HexFormat.of().formatHex(sha.digest()),
        signature,
        "chunk");
  }

  /** Checks the signature of the trailing headers, given as {@code name:value\n} lines. */
  public void trailer(String canonicalTrailer, String signature) throws S3Exception {
    check(
        "AWS4-HMAC-SHA256-TRAILER",
        SignatureV4.sha256Hex(canonicalTrailer.getBytes(StandardCharsets.UTF_8)),
        signature,
        "trailer");
  }

  /** Checks {@code signature} of what follows the chain's fields in the string to sign. */
  private void check(String algorithm, String hashes, String signature, String what)
      throws S3Exception {
    String stringToSign =
        algorithm + '\n' + amzDate + '\n' + scope + '\n' + previous + '\n' + hashes;
    byte[] given;
    try {
      given = HexFormat.of().parseHex(signature);
    } catch (IllegalArgumentException e) {
      given = new byte[0];
    }
    if (!MessageDigest.isEqual(SignatureV4.hmac(signingKey, stringToSign), given)) {
      throw new S3Exception(
          S3Error.SIGNATURE_DOES_NOT_MATCH, "a " + what + " signature of the body does not match");
    }
    previous = signature;
  }
}
