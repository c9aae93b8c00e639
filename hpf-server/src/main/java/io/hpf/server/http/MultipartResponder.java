package io.hpf.server.http;

import io.hpf.server.s3.ChunkSignatures;
import io.hpf.server.s3.Etags;
import io.hpf.server.s3.MultipartUploads;
import io.hpf.server.s3.S3Error;
import io.hpf.server.s3.S3Exception;
import io.hpf.server.s3.S3Xml;
import io.hpf.server.s3.UserMetadata;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.util.Map;

/**
 * S3's multipart upload of an object: CreateMultipartUpload ({@code POST ?uploads}), UploadPart
 * ({@code PUT ?partNumber&uploadId}, each part checked as a PutObject body), ListParts ({@code GET
 * ?uploadId}), CompleteMultipartUpload ({@code POST ?uploadId}: the object assembled from the parts
 * listed and committed whole, answered once committed) and AbortMultipartUpload ({@code DELETE
 * ?uploadId}). Parts are staged by {@link MultipartUploads}.
 */
final class MultipartResponder {
  private final WriteResponder writes;
  private final MultipartUploads uploads;

  MultipartResponder(WriteResponder writes, MultipartUploads uploads) {
    this.writes = writes;
    this.uploads = uploads;
  }

  void respond(
      Exchange ex, String bucket, String key, Map<String, String> query, ChunkSignatures signatures)
      throws IOException, S3Exception {
    ex.route("multipart");
    HttpMethod method = ex.request.method();
    String uploadId = query.get("uploadId");
    if (uploadId == null) {
      if (!method.equals(HttpMethod.POST)) {
        throw new S3Exception(S3Error.NOT_IMPLEMENTED, "listing uploads is not offered here");
      }
      String id = uploads.create(bucket, key, UserMetadata.of(ex.request.headers()));
      ex.sendText(HttpResponseStatus.OK, "application/xml", S3Xml.initiated(bucket, key, id));
    } else if (method.equals(HttpMethod.PUT)) {
      part(ex, bucket, key, uploadId, query.get("partNumber"), signatures);
    } else if (method.equals(HttpMethod.POST)) {
      complete(ex, bucket, key, uploadId);
    } else if (method.equals(HttpMethod.DELETE)) {
      uploads.remove(uploadId, bucket, key);
      ex.send(
          HttpResponseStatus.NO_CONTENT,
          null,
          Unpooled.EMPTY_BUFFER,
          ex.head(HttpResponseStatus.NO_CONTENT));
    } else if (method.equals(HttpMethod.GET)) {
      ex.sendText(
          HttpResponseStatus.OK,
          "application/xml",
          S3Xml.parts(bucket, key, uploadId, uploads.parts(uploadId, bucket, key)));
    } else {
      throw new S3Exception(S3Error.METHOD_NOT_ALLOWED, method + " of an upload is not taken");
    }
  }

  private void part(
      Exchange ex,
      String bucket,
      String key,
      String uploadId,
      String partNumber,
      ChunkSignatures signatures)
      throws IOException, S3Exception {
    int number;
    try {
      number = Integer.parseInt(partNumber == null ? "" : partNumber);
    } catch (NumberFormatException e) {
      throw new S3Exception(S3Error.INVALID_ARGUMENT, "partNumber must be a number");
    }
    if (ex.request.headers().contains("x-amz-copy-source")) {
      copyPart(ex, bucket, key, uploadId, number);
      return;
    }
    UploadBody body = UploadBody.read(ex, signatures);
    String etag = uploads.putPart(uploadId, bucket, key, number, body.content());
    HttpResponse head = ex.head(HttpResponseStatus.OK);
    head.headers().set(HttpHeaderNames.ETAG, etag);
    body.checksums().forEach((name, value) -> head.headers().set(name, value));
    ex.send(HttpResponseStatus.OK, null, Unpooled.EMPTY_BUFFER, head);
  }

  /** ListMultipartUploads ({@code GET /<bucket>?uploads}): every upload in progress, one page. */
  void listUploads(Exchange ex, String bucket, String prefix) {
    ex.route("multipart");
    ex.sendText(
        HttpResponseStatus.OK,
        "application/xml",
        S3Xml.uploads(bucket, prefix, uploads.inProgress(bucket, prefix)));
  }

  /**
   * UploadPartCopy: a part made of an object of an archive served here, or of the bytes of it that
   * x-amz-copy-source-range names ({@code bytes=FIRST-LAST}, both inclusive, within the object).
   */
  private void copyPart(Exchange ex, String bucket, String key, String uploadId, int number)
      throws IOException, S3Exception {
    byte[] content = writes.copySource(ex).content();
    String range = ex.request.headers().get("x-amz-copy-source-range");
    if (range != null) {
      content = slice(content, range);
    }
    String etag = uploads.putPart(uploadId, bucket, key, number, content);
    ex.sendText(
        HttpResponseStatus.OK,
        "application/xml",
        S3Xml.copyPartResult(etag, System.currentTimeMillis()));
  }

  /** x-amz-copy-source-range: both ends given (S3 takes no open or suffix range here). */
  private static final java.util.regex.Pattern COPY_RANGE =
      java.util.regex.Pattern.compile("bytes=(\\d{1,18})-(\\d{1,18})");

  /**
   * The bytes {@code bytes=FIRST-LAST} names; InvalidArgument unless it lies within (unlike a GET's
   * Range, which {@link ByteRange} clamps or ignores, a copy must get exactly what it named).
   */
  static byte[] slice(byte[] content, String range) throws S3Exception {
    java.util.regex.Matcher m = COPY_RANGE.matcher(range.strip());
    if (!m.matches()) {
      throw new S3Exception(
          S3Error.INVALID_ARGUMENT, "x-amz-copy-source-range must be bytes=FIRST-LAST");
    }
    long first = Long.parseLong(m.group(1));
    long last = Long.parseLong(m.group(2));
    if (first > last || last >= content.length) {
      throw new S3Exception(
          S3Error.INVALID_ARGUMENT,
          "x-amz-copy-source-range "
              + range.strip()
              + " is not within the object's "
              + content.length
              + " bytes");
    }
    return java.util.Arrays.copyOfRange(content, (int) first, (int) last + 1);
  }

  private void complete(Exchange ex, String bucket, String key, String uploadId)
      throws IOException, S3Exception {
    byte[] content =
        uploads.assemble(uploadId, bucket, key, S3Xml.completeParts(UploadBody.bytes(ex)));
    String etag = Etags.of(content);
    writes.put(
        ex,
        bucket,
        key,
        content,
        uploads.userMetadata(uploadId, bucket, key),
        g -> {
          try {
            uploads.remove(uploadId, bucket, key);
          } catch (S3Exception gone) {
            // Completed twice at once, or expired meanwhile: the object is committed either way.
          }
          ex.sendText(
              HttpResponseStatus.OK,
              "application/xml",
              S3Xml.completed("/" + bucket + "/" + key, bucket, key, etag));
        });
  }
}
