package io.hpf.server.s3;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks AWS Signature Version 4 as S3 does, in the Authorization header or in a presigned URL's
 * query: the canonical request is rebuilt from what arrived (path and query decoded and encoded
 * again the one way SigV4 allows), signed with the key derived from the secret of the access key
 * named, and compared in constant time. The request's time must lie within 15 minutes of the
 * server's clock (a presigned URL: from its time until it expires, at most 7 days).
 */
public final class SignatureV4 {
  public static final String ALGORITHM = "AWS4-HMAC-SHA256";
  public static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
  static final long MAX_SKEW_MILLIS = 15 * 60_000L;
  static final long MAX_EXPIRES_SECONDS = 7 * 24 * 3600L;

  /** SHA-256 of no bytes: the payload hash of every read. */
  static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  /** What the check reads of a request. */
  public interface Request {
    String method();

    /** The path as it arrived, escapes and all, without the query. */
    String rawPath();

    /** The query as it arrived (after '?'), or "". */
    String rawQuery();

    /** Every value of a header, by its lower-case name; empty when absent. */
    List<String> headers(String lowerCaseName);

    byte[] body();

    /**
     * Told, once the request's own signature is found good, how to check the signatures of the
     * chunks of its body, should it be sent {@code aws-chunked} with signed chunks.
     */
    default void signedBy(ChunkSignatures chunks) {}
  }

  private final S3Keys keys;
  private final LongSupplier clockMillis;

  /** Signing keys by access key, day and region: five HMACs saved per request. */
  private final Map<String, byte[]> signingKeys = new ConcurrentHashMap<>();

  public SignatureV4(S3Keys keys, LongSupplier clockMillis) {
    this.keys = keys;
    this.clockMillis = clockMillis;
  }

  /** The access key of a correctly signed request; else the refusal S3 would give. */
  public String verify(Request r) throws S3Exception {
    List<String> authorization = r.headers("authorization");
    List<String[]> parameters = Canonical.split(r.rawQuery());
    Map<String, String> query = Canonical.queryParameters(parameters);
    if (!authorization.isEmpty()) {
      return verifyHeader(r, authorization.get(0), parameters);
    }
    if (query.containsKey("X-Amz-Signature")) {
      return verifyPresigned(r, query, parameters);
    }
    if (query.containsKey("Signature")) {
      throw new S3Exception(
          S3Error.INVALID_REQUEST,
          "signature version 2 is not supported: sign with AWS4-HMAC-SHA256");
    }
    throw new S3Exception(S3Error.ACCESS_DENIED, "the request is not signed (AWS Signature V4)");
  }

  private String verifyHeader(Request r, String authorization, List<String[]> parameters)
      throws S3Exception {
    if (!authorization.startsWith(ALGORITHM + " ")) {
      throw new S3Exception(
          S3Error.INVALID_REQUEST,
          "only AWS4-HMAC-SHA256 signatures are supported (signature version 2 is not)");
    }
    Map<String, String> fields = Canonical.authorizationFields(authorization);
    String credential = fields.get("Credential");
    String signedHeaders = fields.get("SignedHeaders");
    String signature = fields.get("Signature");
    if (credential == null || signedHeaders == null || signature == null) {
      throw new S3Exception(
          S3Error.AUTHORIZATION_HEADER_MALFORMED,
          "the Authorization header needs Credential, SignedHeaders and Signature");
    }
    String amzDate = first(r.headers("x-amz-date"));
    if (amzDate == null) {
      throw new S3Exception(S3Error.ACCESS_DENIED, "a signed request needs an x-amz-date header");
    }
    long time = parseDate(amzDate, S3Error.ACCESS_DENIED);
    if (Math.abs(clockMillis.getAsLong() - time) > MAX_SKEW_MILLIS) {
      throw new S3Exception(
          S3Error.REQUEST_TIME_TOO_SKEWED,
          "the request's time " + amzDate + " is more than 15 minutes from the server's");
    }
    String payload = first(r.headers("x-amz-content-sha256"));
    if (payload == null) {
      throw new S3Exception(
          S3Error.INVALID_REQUEST, "a signed request needs an x-amz-content-sha256 header");
    }
    checkPayload(payload, r);
    return check(
        r,
        Credential.parse(credential, amzDate, S3Error.AUTHORIZATION_HEADER_MALFORMED),
        amzDate,
        signedHeaders,
        signature,
        payload,
        parameters);
  }

  private String verifyPresigned(Request r, Map<String, String> query, List<String[]> parameters)
      throws S3Exception {
    S3Error malformed = S3Error.AUTHORIZATION_QUERY_PARAMETERS_ERROR;
    if (!ALGORITHM.equals(query.get("X-Amz-Algorithm"))) {
      throw new S3Exception(malformed, "X-Amz-Algorithm must be " + ALGORITHM);
    }
    String amzDate = query.get("X-Amz-Date");
    String credential = query.get("X-Amz-Credential");
    String signedHeaders = query.get("X-Amz-SignedHeaders");
    String expires = query.get("X-Amz-Expires");
    if (amzDate == null || credential == null || signedHeaders == null || expires == null) {
      throw new S3Exception(
          malformed,
          "a presigned URL needs X-Amz-Date, X-Amz-Credential, X-Amz-SignedHeaders and"
              + " X-Amz-Expires");
    }
    long seconds = parseExpires(expires);
    long time = parseDate(amzDate, malformed);
    long now = clockMillis.getAsLong();
    if (now > time + seconds * 1000) {
      throw new S3Exception(S3Error.ACCESS_DENIED, "the presigned URL has expired");
    }
    if (time - now > MAX_SKEW_MILLIS) {
      throw new S3Exception(S3Error.ACCESS_DENIED, "the presigned URL is not valid yet");
    }
    String payload = query.getOrDefault("X-Amz-Content-Sha256", UNSIGNED_PAYLOAD);
    return check(
        r,
        Credential.parse(credential, amzDate, malformed),
        amzDate,
        signedHeaders,
        query.get("X-Amz-Signature"),
        payload,
        parameters);
  }

  private String check(
      Request r,
      Credential credential,
      String amzDate,
      String signedHeaders,
      String signature,
      String payload,
      List<String[]> parameters)
      throws S3Exception {
    String secret = keys.secret(credential.accessKey());
    if (secret == null) {
      throw new S3Exception(
          S3Error.INVALID_ACCESS_KEY_ID,
          "access key '" + credential.accessKey() + "' is not one of the server's");
    }
    if (!List.of(signedHeaders.split(";", -1)).contains("host")) {
      throw new S3Exception(S3Error.ACCESS_DENIED, "the Host header must be signed");
    }
    byte[] key = signingKey(credential, secret);
    byte[] expected =
        hmac(key, stringToSign(r, credential, amzDate, signedHeaders, payload, parameters));
    byte[] given;
    try {
      given = HexFormat.of().parseHex(signature);
    } catch (IllegalArgumentException e) {
      given = new byte[0];
    }
    if (!MessageDigest.isEqual(expected, given)) {
      throw new S3Exception(
          S3Error.SIGNATURE_DOES_NOT_MATCH,
          "the signature does not match the request and the secret of access key '"
              + credential.accessKey()
              + "'");
    }
    r.signedBy(new ChunkSignatures(key, amzDate, credential.scope(), signature));
    return credential.accessKey();
  }

  /** SigV4's string to sign of a request: its canonical form, hashed, under the scope. */
  private static String stringToSign(
      Request r,
      Credential credential,
      String amzDate,
      String signedHeaders,
      String payload,
      List<String[]> parameters) {
    String canonicalRequest =
        r.method()
            + '\n'
            + Canonical.path(r.rawPath())
            + '\n'
            + Canonical.query(parameters)
            + '\n'
            + Canonical.headers(List.of(signedHeaders.split(";", -1)), r::headers)
            + '\n'
            + signedHeaders
            + '\n'
            + payload;
    return ALGORITHM
        + '\n'
        + amzDate
        + '\n'
        + credential.scope()
        + '\n'
        + sha256Hex(canonicalRequest.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The Authorization header of a request this server sends on in a ring (to an archive's owner,
   * which checks it as any request) signed with {@code accessKey}'s secret: the key the client
   * signed with, so the owner sees the client's identity. Signs {@code signedHeaders} (lower case,
   * sorted, with {@code host}, {@code x-amz-content-sha256} and {@code x-amz-date}).
   */
  public String authorization(Request r, String accessKey, String amzDate, String signedHeaders)
      throws S3Exception {
    String secret = keys.secret(accessKey);
    if (secret == null) {
      throw new S3Exception(S3Error.INVALID_ACCESS_KEY_ID, "no secret for '" + accessKey + "'");
    }
    Credential c = new Credential(accessKey, amzDate.substring(0, 8), "us-east-1");
    String payload = first(r.headers("x-amz-content-sha256"));
    String signature =
        HexFormat.of()
            .formatHex(
                hmac(
                    signingKey(c, secret),
                    stringToSign(
                        r, c, amzDate, signedHeaders, payload, Canonical.split(r.rawQuery()))));
    return ALGORITHM
        + " Credential="
        + accessKey
        + '/'
        + c.scope()
        + ", SignedHeaders="
        + signedHeaders
        + ", Signature="
        + signature;
  }

  /** x-amz-date's form of a time: {@code 20261128T041500Z}. */
  public static String amzDate(long epochMillis) {
    return java.time.format.DateTimeFormatter.ofPattern(
            "yyyyMMdd'T'HHmmss'Z'", java.util.Locale.ROOT)
        .withZone(java.time.ZoneOffset.UTC)
        .format(java.time.Instant.ofEpochMilli(epochMillis));
  }

  /** A body sent with a hex SHA-256 must match it (a read's body is empty). */
  private static void checkPayload(String payload, Request r) throws S3Exception {
    if (payload.length() != 64 || !payload.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      return; // UNSIGNED-PAYLOAD, or a streaming upload, refused later as a write
    }
    byte[] body = r.body(); // copied only when there is a hash to check it against
    String actual = body.length == 0 ? EMPTY_SHA256 : sha256Hex(body);
    if (!actual.equalsIgnoreCase(payload)) {
      throw new S3Exception(
          S3Error.CONTENT_SHA256_MISMATCH, "the body does not match x-amz-content-sha256");
    }
  }

  private byte[] signingKey(Credential c, String secret) {
    String id = c.accessKey() + '/' + c.day() + '/' + c.region();
    byte[] key = signingKeys.get(id);
    if (key == null) {
      key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), c.day());
      key = hmac(key, c.region());
      key = hmac(key, "s3");
      key = hmac(key, "aws4_request");
      if (signingKeys.size() >= 4096) {
        signingKeys.clear(); // a day's keys times regions; never grows without bound
      }
      signingKeys.put(id, key);
    }
    return key;
  }

  /** {@code yyyyMMdd'T'HHmmss'Z'} to epoch milliseconds, read by hand (a formatter costs µs). */
  private static long parseDate(String amzDate, S3Error error) throws S3Exception {
    boolean shaped =
        amzDate.length() == 16 && amzDate.charAt(8) == 'T' && amzDate.charAt(15) == 'Z';
    try {
      if (shaped) {
        long day =
            java.time.LocalDate.of(
                    digits(amzDate, 0, 4), digits(amzDate, 4, 6), digits(amzDate, 6, 8))
                .toEpochDay();
        int hour = digits(amzDate, 9, 11);
        int minute = digits(amzDate, 11, 13);
        int second = digits(amzDate, 13, 15);
        if (hour < 24 && minute < 60 && second < 60) {
          return ((day * 24 + hour) * 60 + minute) * 60_000L + second * 1000L;
        }
      }
    } catch (java.time.DateTimeException | NumberFormatException e) {
      // said below
    }
    throw new S3Exception(error, "'" + amzDate + "' is not a time like 20260131T235959Z");
  }

  private static int digits(String s, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      int d = s.charAt(i) - '0';
      if (d < 0 || d > 9) {
        throw new NumberFormatException();
      }
      n = n * 10 + d;
    }
    return n;
  }

  private static long parseExpires(String expires) throws S3Exception {
    try {
      long seconds = Long.parseLong(expires);
      if (seconds >= 1 && seconds <= MAX_EXPIRES_SECONDS) {
        return seconds;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new S3Exception(
        S3Error.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
        "X-Amz-Expires must be from 1 to 604800 seconds");
  }

  private static String first(List<String> values) {
    return values.isEmpty() ? null : values.get(0);
  }

  /**
   * A thread's HMAC and the key it was last given: signing keys are cached, so usually the same.
   */
  private static final class Hmac {
    final Mac mac = newMac();
    byte[] key;
  }

  private static final ThreadLocal<Hmac> HMAC = ThreadLocal.withInitial(Hmac::new);

  static byte[] hmac(byte[] key, String data) {
    Hmac h = HMAC.get();
    if (h.key != key) {
      try {
        h.mac.init(new SecretKeySpec(key, "HmacSHA256"));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HMAC-SHA256 refused a key", e);
      }
      h.key = key;
    }
    return h.mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
  }

  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (GeneralSecurityException e) {
              throw new IllegalStateException("this Java has no SHA-256", e);
            }
          });

  /** This thread's SHA-256, reset. */
  static MessageDigest sha256() {
    MessageDigest d = SHA256.get();
    d.reset();
    return d;
  }

  public static String sha256Hex(byte[] data) {
    return HexFormat.of().formatHex(SHA256.get().digest(data));
  }

  private static Mac newMac() {
    try {
      return Mac.getInstance("HmacSHA256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this Java has no HMAC-SHA256", e);
    }
  }

  /** A credential scope: {@code AKID/20260131/us-east-1/s3/aws4_request}. */
  record Credential(String accessKey, String day, String region) {
    String scope() {
      return day + '/' + region + "/s3/aws4_request";
    }

    /** The access key is everything before the last four components (it may hold a '/'). */
    static Credential parse(String credential, String amzDate, S3Error error) throws S3Exception {
      String[] p = credential.split("/", -1);
      int n = p.length;
      if (n < 5 || !p[n - 2].equals("s3") || !p[n - 1].equals("aws4_request")) {
        throw new S3Exception(
            error, "the credential must be ACCESS_KEY/DAY/REGION/s3/aws4_request");
      }
      if (!amzDate.startsWith(p[n - 4]) || p[n - 4].length() != 8) {
        throw new S3Exception(error, "the credential's day is not the request's (" + amzDate + ")");
      }
      String accessKey = String.join("/", List.of(p).subList(0, n - 4));
      return new Credential(accessKey, p[n - 4], p[n - 3]);
    }
  }
}
