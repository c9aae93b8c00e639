package io.hpf.server.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** x-amz-meta-* headers to attributes and back, as S3 treats them. */
class UserMetadataTest {
  @Test
  void headersBecomeAttributesLowercasedDecodedAndJoined() throws Exception {
    HttpHeaders h = new DefaultHttpHeaders();
    h.add("X-Amz-Meta-Camera", "nikon");
    h.add("x-amz-meta-tag", "a");
    h.add("x-amz-meta-tag", "b");
    h.add("x-amz-meta-city", "=?UTF-8?B?" + b64("Zürich") + "?=");
    h.add("x-amz-meta-odd", "=?UTF-8?B?not base64!?=");
    h.add("Content-Type", "image/jpeg");
    assertEquals(
        Map.of(
            "camera", "nikon",
            "tag", "a,b",
            "city", "Zürich",
            "odd", "=?UTF-8?B?not base64!?="),
        UserMetadata.of(h));
    assertEquals(Map.of(), UserMetadata.of(new DefaultHttpHeaders()));
  }

  @Test
  void moreThanTwoKilobytesOrANamelessHeaderIsRefused() throws Exception {
    HttpHeaders big = new DefaultHttpHeaders();
    big.add("x-amz-meta-a", "x".repeat(2000));
    big.add("x-amz-meta-b", "y".repeat(47)); // 1 + 2000 + 1 + 47 = 2049 bytes
    S3Exception e = assertThrows(S3Exception.class, () -> UserMetadata.of(big));
    assertEquals(S3Error.METADATA_TOO_LARGE, e.error());
    HttpHeaders exactly = new DefaultHttpHeaders();
    exactly.add("x-amz-meta-a", "x".repeat(2000));
    exactly.add("x-amz-meta-b", "y".repeat(46));
    assertEquals(2, UserMetadata.of(exactly).size());
    HttpHeaders nameless = new DefaultHttpHeaders();
    nameless.add("x-amz-meta-", "v");
    assertEquals(
        S3Error.INVALID_ARGUMENT,
        assertThrows(S3Exception.class, () -> UserMetadata.of(nameless)).error());
  }

  @Test
  void attributesGoOutAsHeadersEncodedWhereAHeaderCannotCarryThem() throws Exception {
    HttpHeaders out = new DefaultHttpHeaders();
    UserMetadata.addTo(
        out,
        Map.of(
            "camera", "nikon",
            "city", "Zürich",
            "line", "a\r\nInjected: yes",
            "padded", " spaced ",
            "not a token", "skipped"));
    assertEquals("nikon", out.get("x-amz-meta-camera"));
    assertEquals("=?UTF-8?B?" + b64("Zürich") + "?=", out.get("x-amz-meta-city"));
    assertEquals("=?UTF-8?B?" + b64("a\r\nInjected: yes") + "?=", out.get("x-amz-meta-line"));
    assertEquals("=?UTF-8?B?" + b64(" spaced ") + "?=", out.get("x-amz-meta-padded"));
    assertNull(out.get("Injected"));
    assertEquals(4, out.size(), out.toString());
    // and back: what goes out comes in as it was
    assertEquals(
        Map.of(
            "camera",
            "nikon",
            "city",
            "Zürich",
            "line",
            "a\r\nInjected: yes",
            "padded",
            " spaced "),
        UserMetadata.of(out));
  }

  private static String b64(String s) {
    return java.util.Base64.getEncoder()
        .encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
