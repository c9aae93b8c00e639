package io.hpf.server.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** aws-chunked bodies as clients send them unsigned with a trailer, and framings that lie. */
class AwsChunkedTest {
  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void unsignedChunksWithATrailingChecksumDecode() throws Exception {
    String body = "5\r\nhello\r\n6\r\n world\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\n\r\n";
    AwsChunked.Decoded d = AwsChunked.decode(bytes(body), 11, null);
    assertArrayEquals(bytes("hello world"), d.content());
    assertEquals(Map.of("x-amz-checksum-crc32", "DUoRhQ=="), d.trailers());
    // The trailer's CRC32 is the content's: ContentChecksums takes it from the trailer.
    assertEquals(
        Map.of("x-amz-checksum-crc32", "DUoRhQ=="),
        ContentChecksums.check(d.content(), name -> null, d.trailers()));
    assertEquals(
        S3Error.BAD_DIGEST,
        assertThrows(
                S3Exception.class,
                () -> ContentChecksums.check(bytes("hello worle"), name -> null, d.trailers()))
            .error());
  }

  @Test
  void framingsThatLieAreRefused() {
    String[] bodies = {
      "5\r\nhello\r\n0\r\n\r\n", // decoded length says 6
      "7\r\nhello\r\n0\r\n\r\n", // a chunk longer than what follows
      "zz\r\nhello\r\n0\r\n\r\n", // not hex
      "5\r\nhelloXX0\r\n\r\n", // no CRLF after the data
      "5\r\nhello\r\n", // ends without the last chunk
      "5\r\nhello\r\n0\r\n\r\ntrailing junk", // bytes after the end
      "fffffffff\r\nhello\r\n0\r\n\r\n", // a size beyond any int
      "5;chunk-signature=00\r\nhello\r\n0\r\n\r\n", // more than the decoded length (4)
    };
    long[] lengths = {6, 5, 5, 5, 5, 5, 5, 4};
    for (int i = 0; i < bodies.length; i++) {
      int at = i;
      S3Exception e =
          assertThrows(
              S3Exception.class,
              () -> AwsChunked.decode(bytes(bodies[at]), lengths[at], null),
              bodies[at]);
      assertEquals(S3Error.INCOMPLETE_BODY, e.error(), e.getMessage());
    }
  }

  @Test
  void aSignedChunkWithAWrongSignatureIsRefused() {
    ChunkSignatures signatures =
        new ChunkSignatures(
            new byte[32], "20261128T000000Z", "20261128/us-east-1/s3/aws4_request", "0".repeat(64));
    S3Exception e =
        assertThrows(
            S3Exception.class,
            () ->
                AwsChunked.decode(
                    bytes(
                        "5;chunk-signature="
                            + "1".repeat(64)
                            + "\r\nhello\r\n0;chunk-signature="
                            + "1".repeat(64)
                            + "\r\n\r\n"),
                    5,
                    signatures));
    assertEquals(S3Error.SIGNATURE_DOES_NOT_MATCH, e.error());
  }
}
