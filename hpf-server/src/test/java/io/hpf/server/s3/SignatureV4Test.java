package io.hpf.server.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The check of AWS Signature V4 against the signed examples of the S3 API reference ("Signature
 * Calculations for the Authorization Header" and "Query String Authentication": GET Object with a
 * Range, the same object presigned), and each way a request is refused.
 */
class SignatureV4Test {
  static final String ACCESS = "AKIAIOSFODNN7EXAMPLE";
  static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  static final long EXAMPLE_TIME = Instant.parse("2013-05-24T00:00:00Z").toEpochMilli();
  static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  static final String HEADER_EXAMPLE_SIGNATURE =
      "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41";
  static final String PRESIGNED_EXAMPLE_SIGNATURE =
      "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404";

  record Req(String method, String rawPath, String rawQuery, Map<String, List<String>> headers)
      implements SignatureV4.Request {
    @Override
    public List<String> headers(String lowerCaseName) {
      return headers.getOrDefault(lowerCaseName, List.of());
    }

    @Override
    public byte[] body() {
      return new byte[0];
    }

    Req with(String header, String value) {
      Map<String, List<String>> h = new LinkedHashMap<>(headers);
      h.put(header, new ArrayList<>(List.of(value)));
      return new Req(method, rawPath, rawQuery, h);
    }
  }

  static SignatureV4 verifier(long now) throws IOException {
    return new SignatureV4(S3Keys.parse("keys", List.of(ACCESS + " " + SECRET)), () -> now);
  }

  /** The reference's GET Object example: bytes 0-9 of examplebucket's test.txt. */
  static Req headerExample(String signature) {
    Map<String, List<String>> h = new LinkedHashMap<>();
    h.put("host", List.of("examplebucket.s3.amazonaws.com"));
    h.put("range", List.of("bytes=0-9"));
    h.put("x-amz-content-sha256", List.of(EMPTY_SHA256));
    h.put("x-amz-date", List.of("20130524T000000Z"));
    h.put(
        "authorization",
        List.of(
            "AWS4-HMAC-SHA256 Credential="
                + ACCESS
                + "/20130524/us-east-1/s3/aws4_request,"
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature="
                + signature));
    return new Req("GET", "/test.txt", "", h);
  }

  static Req presignedExample(String signature) {
    String query =
        "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="
            + ACCESS
            + "%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z"
            + "&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature="
            + signature;
    return new Req(
        "GET", "/test.txt", query, Map.of("host", List.of("examplebucket.s3.amazonaws.com")));
  }

  @Test
  void theReferenceExamplesVerify() throws Exception {
    assertEquals(ACCESS, verifier(EXAMPLE_TIME).verify(headerExample(HEADER_EXAMPLE_SIGNATURE)));
    assertEquals(
        ACCESS,
        verifier(EXAMPLE_TIME + 3_600_000).verify(presignedExample(PRESIGNED_EXAMPLE_SIGNATURE)));
  }

  @Test
  void anyChangeToWhatWasSignedIsRefused() throws Exception {
    SignatureV4 v = verifier(EXAMPLE_TIME);
    Req signed = headerExample(HEADER_EXAMPLE_SIGNATURE);
    assertRefused(S3Error.SIGNATURE_DOES_NOT_MATCH, v, signed.with("range", "bytes=0-10"));
    assertRefused(S3Error.SIGNATURE_DOES_NOT_MATCH, v, signed.with("host", "other.example.com"));
    assertRefused(
        S3Error.SIGNATURE_DOES_NOT_MATCH, v, new Req("GET", "/test2.txt", "", signed.headers()));
    assertRefused(
        S3Error.SIGNATURE_DOES_NOT_MATCH, v, new Req("HEAD", "/test.txt", "", signed.headers()));
    assertRefused(
        S3Error.SIGNATURE_DOES_NOT_MATCH, v, new Req("GET", "/test.txt", "acl", signed.headers()));
    assertRefused(
        S3Error.SIGNATURE_DOES_NOT_MATCH,
        v,
        headerExample(HEADER_EXAMPLE_SIGNATURE.replace('f', 'e')));
    assertRefused(S3Error.SIGNATURE_DOES_NOT_MATCH, v, headerExample("not-hex"));
  }

  @Test
  void unknownKeysTimesOutsideTheWindowAndMalformedHeadersAreRefused() throws Exception {
    Req signed = headerExample(HEADER_EXAMPLE_SIGNATURE);
    assertRefused(
        S3Error.INVALID_ACCESS_KEY_ID,
        new SignatureV4(S3Keys.parse("keys", List.of("OTHER " + SECRET)), () -> EXAMPLE_TIME),
        signed);
    assertRefused(S3Error.REQUEST_TIME_TOO_SKEWED, verifier(EXAMPLE_TIME + 16 * 60_000), signed);
    assertRefused(S3Error.REQUEST_TIME_TOO_SKEWED, verifier(EXAMPLE_TIME - 16 * 60_000), signed);
    assertEquals(ACCESS, verifier(EXAMPLE_TIME + 14 * 60_000).verify(signed));
    SignatureV4 v = verifier(EXAMPLE_TIME);
    assertRefused(
        S3Error.AUTHORIZATION_HEADER_MALFORMED,
        v,
        signed.with("authorization", "AWS4-HMAC-SHA256 Credential=x"));
    assertRefused(
        S3Error.AUTHORIZATION_HEADER_MALFORMED,
        v,
        signed.with(
            "authorization",
            "AWS4-HMAC-SHA256 Credential="
                + ACCESS
                + "/20130525/us-east-1/s3/aws4_request,SignedHeaders=host,Signature=00"));
    assertRefused(S3Error.INVALID_REQUEST, v, signed.with("authorization", "AWS AKID:c2ln"));
    assertRefused(S3Error.ACCESS_DENIED, v, signed.with("x-amz-date", "yesterday"));
    assertRefused(
        S3Error.CONTENT_SHA256_MISMATCH, v, signed.with("x-amz-content-sha256", "ab".repeat(32)));
    Req unsignedHost =
        signed.with(
            "authorization",
            "AWS4-HMAC-SHA256 Credential="
                + ACCESS
                + "/20130524/us-east-1/s3/aws4_request,SignedHeaders=range,Signature=00");
    assertRefused(S3Error.ACCESS_DENIED, v, unsignedHost);
    assertRefused(
        S3Error.ACCESS_DENIED, v, new Req("GET", "/test.txt", "", Map.of("host", List.of("h"))));
  }

  @Test
  void presignedUrlsHoldFromTheirTimeUntilTheyExpire() throws Exception {
    Req url = presignedExample(PRESIGNED_EXAMPLE_SIGNATURE);
    assertEquals(ACCESS, verifier(EXAMPLE_TIME + 86_400_000).verify(url));
    assertRefused(S3Error.ACCESS_DENIED, verifier(EXAMPLE_TIME + 86_401_000), url);
    assertRefused(S3Error.ACCESS_DENIED, verifier(EXAMPLE_TIME - 16 * 60_000), url);
    assertRefused(
        S3Error.SIGNATURE_DOES_NOT_MATCH,
        verifier(EXAMPLE_TIME),
        new Req("GET", "/test.txt", url.rawQuery() + "&extra=1", url.headers()));
    assertRefused(
        S3Error.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
        verifier(EXAMPLE_TIME),
        new Req(
            "GET",
            "/test.txt",
            url.rawQuery().replace("X-Amz-Expires=86400", "X-Amz-Expires=604801"),
            url.headers()));
  }

  @Test
  void pathsAndQueriesAreEncodedTheOneWaySigV4Allows() {
    assertEquals("/a%20b/c%2Bd/%C3%A9~x", Canonical.path("/a%20b/c+d/%c3%a9%7Ex"));
    assertEquals(
        "a=&a-b=2&list-type=2&prefix=x%2Fy%20z",
        Canonical.query(Canonical.split("prefix=x/y+z&list-type=2&a-b=2&a")));
  }

  @Test
  void keysFilesAreReadLineByLine() throws Exception {
    S3Keys keys = S3Keys.parse("k", List.of("# comment", "", "A1 s1", "  A2\ts2  "));
    assertEquals("s1", keys.secret("A1"));
    assertEquals("s2", keys.secret("A2"));
    assertEquals(
        "k:2: expected 'ACCESS_KEY SECRET_KEY'",
        assertThrows(IOException.class, () -> S3Keys.parse("k", List.of("A s", "lonely")))
            .getMessage());
    assertThrows(IOException.class, () -> S3Keys.parse("k", List.of("A s", "A t")));
    assertThrows(IOException.class, () -> S3Keys.parse("k", List.of("# none")));
  }

  static void assertRefused(S3Error expected, SignatureV4 v, Req r) {
    assertEquals(expected, assertThrows(S3Exception.class, () -> v.verify(r)).error());
  }
}
