package io.hpf.server.http;

import io.hpf.server.s3.AwsChunked;
import io.hpf.server.s3.ChunkSignatures;
import io.hpf.server.s3.ContentChecksums;
import io.hpf.server.s3.S3Error;
import io.hpf.server.s3.S3Exception;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.Map;

/**
 * The content an S3 upload (PutObject, UploadPart) carries, received whole and checked before
 * anything is written: decoded from {@code aws-chunked} (chunk signatures checked when signed), and
 * every digest sent (Content-MD5, {@code x-amz-checksum-*}, in headers or the trailer) compared.
 *
 * @param content the object's bytes
 * @param checksums the {@code x-amz-checksum-*} sent, which the response echoes
 */
record UploadBody(byte[] content, Map<String, String> checksums) {
  static UploadBody read(Exchange ex, ChunkSignatures signatures) throws S3Exception {
    HttpHeaders h = ex.request.headers();
    byte[] content = bytes(ex);
    Map<String, String> trailers = Map.of();
    String payload = h.get("x-amz-content-sha256", "");
    if (payload.startsWith("STREAMING-")
        || h.containsValue("content-encoding", "aws-chunked", true)) {
      String decoded = h.get("x-amz-decoded-content-length");
      if (decoded == null) {
        throw new S3Exception(
            S3Error.INVALID_REQUEST, "an aws-chunked body needs x-amz-decoded-content-length");
      }
      boolean signedChunks = payload.startsWith("STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
      if (signedChunks && signatures == null) {
        throw new S3Exception(S3Error.ACCESS_DENIED, "signed chunks need a signed request");
      }
      AwsChunked.Decoded d =
          AwsChunked.decode(content, length(decoded), signedChunks ? signatures : null);
      content = d.content();
      trailers = d.trailers();
    }
    return new UploadBody(content, ContentChecksums.check(content, h::get, trailers));
  }

  /** The request's body as it came. */
  static byte[] bytes(Exchange ex) {
    io.netty.buffer.ByteBuf body = ex.request.content();
    byte[] out = new byte[body.readableBytes()];
    body.getBytes(body.readerIndex(), out);
    return out;
  }

  private static long length(String s) throws S3Exception {
    try {
      return Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      throw new S3Exception(S3Error.INVALID_ARGUMENT, "not a length: '" + s + "'");
    }
  }
}
