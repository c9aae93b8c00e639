package io.hpf.server.http;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.ArchiveReader;
import io.hpf.archive.FetchedEntry;
import io.hpf.archive.model.EntryInfo;
import io.hpf.server.s3.UserMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

/**
 * GET and HEAD of an entry: one lookup reads its row, checksum and (when small) its content; the
 * response carries Content-Length, ETag (the content's CRC32C), Last-Modified and a Content-Type
 * from the name, answers If-None-Match with 304 and a single Range with 206 or 416.
 *
 * <p>Every byte sent is read through the request's snapshot and checked at this request, not once
 * per process: damage that comes after a first read (bit rot, a file replaced under the archive) is
 * found by the next read. Two ways out: content up to {@link #WHOLE_BYTES} read whole, checked
 * against its CRC32C and sent as one buffer; larger content streamed from a worker in bounded
 * memory, chunk by chunk, each chunk checked before it is sent. Checking costs one CRC32C over
 * bytes the read brought into memory; zero-copy sends from the part file, which skipped it,
 * measured no faster (docs/BENCHMARKS.md, "The read server").
 */
final class EntryResponder {
  /** Content up to this size is read whole and sent as one buffer. */
  static final int WHOLE_BYTES = 1 << 20;

  private static final int CHUNK_BYTES = 64 * 1024;

  private final RequestRouter router;

  EntryResponder(RequestRouter router) {
    this.router = router;
  }

  /**
   * Answers for {@code name} of the archive the exchange holds a lease on.
   *
   * @param onWorker true on a worker thread (blocking allowed), false on the event loop
   */
  void respond(Exchange ex, String archive, String name, boolean onWorker) throws IOException {
    ex.route("get");
    String problem = ArchiveFormat.whyNotNormal(name);
    if (problem != null) {
      ex.error(HttpResponseStatus.BAD_REQUEST, "invalid entry name '" + name + "': " + problem);
      return;
    }
    ArchiveReader reader = ex.lease().reader();
    FetchedEntry f = reader.fetch(name, WHOLE_BYTES);
    if (f == null) {
      ex.error(
          HttpResponseStatus.NOT_FOUND, "no entry '" + name + "' in archive '" + archive + "'");
      return;
    }
    EntryInfo info = f.info();
    String etag = etag(f.crc32c());
    HttpResponse head = ex.head(HttpResponseStatus.OK);
    HttpHeaders h = head.headers();
    h.set(HttpHeaderNames.ETAG, etag);
    h.set(HttpHeaderNames.LAST_MODIFIED, HttpDates.format(info.mtimeMillis()));
    h.set(HttpHeaderNames.ACCEPT_RANGES, "bytes");
    if (!preconditionsHold(ex, head, etag, info.mtimeMillis(), name)) {
      return; // answered: 304 or 412
    }
    h.set(HttpHeaderNames.CONTENT_TYPE, ContentTypes.of(info.name()));
    if (ex.speaksS3()) {
      UserMetadata.addTo(h, info.attributes()); // the x-amz-meta-* a PUT gave, or any attributes
    }
    long size = info.rawLength();
    ByteRange range = range(ex, head, etag, name, size);
    if (range == null) {
      return; // answered: outside the entry
    }
    if (range.length() == size && ex.speaksS3() && checksumAsked(ex)) {
      h.set(AMZ_CHECKSUM_CRC32C, crc32cBase64(f.crc32c()));
    }
    byte[] content = f.content();
    if (content != null) {
      ByteBuf body = Unpooled.wrappedBuffer(content, (int) range.start(), (int) range.length());
      ex.send(head.status(), null, body, head);
      return;
    }
    h.set(HttpHeaderNames.CONTENT_LENGTH, range.length());
    if (ex.isHead()) {
      ex.send(head.status(), null, Unpooled.EMPTY_BUFFER, head);
      return;
    }
    if (!onWorker) {
      router.offload(ex, () -> stream(ex, head, reader, info, range, archive));
      return;
    }
    stream(ex, head, reader, info, range, archive);
  }

  /**
   * The range asked for (If-Range honoured) with the response's status and Content-Range set; null
   * when it lies outside the entry, answered 416 here.
   */
  private static ByteRange range(
      Exchange ex, HttpResponse head, String etag, String name, long size) {
    HttpHeaders h = head.headers();
    String ifRange = ex.request.headers().get(HttpHeaderNames.IF_RANGE);
    ByteRange.Request asked =
        ifRange != null && !ifRange.equals(etag)
            ? new ByteRange.Whole()
            : ByteRange.parse(ex.request.headers().get(HttpHeaderNames.RANGE), size);
    if (asked instanceof ByteRange.Unsatisfiable) {
      h.set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + size);
      head.setStatus(HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
      ex.error(head, "range outside entry '" + name + "' of " + size + " bytes");
      return null;
    }
    if (asked instanceof ByteRange.Part part) {
      ByteRange range = part.range();
      head.setStatus(HttpResponseStatus.PARTIAL_CONTENT);
      h.set(
          HttpHeaderNames.CONTENT_RANGE,
          "bytes " + range.start() + "-" + (range.start() + range.length() - 1) + "/" + size);
      return range;
    }
    return new ByteRange(0, size);
  }

  /**
   * Streams content from a worker in chunks, waiting while the client is slower than the disk, so
   * memory stays bounded; every chunk is checked before it is sent. A failure after the head is
   * sent (damage found in a later chunk) can only close the connection: the client sees a short
   * body.
   */
  private void stream(
      Exchange ex,
      HttpResponse head,
      ArchiveReader reader,
      EntryInfo info,
      ByteRange range,
      String archive) {
    boolean full = range.start() == 0 && range.length() == info.rawLength();
    boolean headSent = false;
    // Every byte sent has been checked: chunk by chunk for chunked content, and content stored in
    // one piece (versions 1 to 6) checked whole before its first byte goes out.
    try (InputStream in = reader.openStream(info, range.start())) {
      long left = range.length();
      // The first piece is read (and checked) before the head goes out: a range that starts in
      // damaged content is a clean 500, not a cut body.
      ByteBuf piece = nextPiece(ex, in, info, left, full);
      ex.sendHeaders(head);
      headSent = true;
      while (piece != null) {
        if (!ex.ctx.channel().isActive()) {
          piece.release();
          ex.abort();
          return;
        }
        int read = piece.readableBytes();
        left -= read;
        ChannelFuture written = ex.ctx.writeAndFlush(new DefaultHttpContent(piece));
        ex.countBytes(read);
        if (!ex.ctx.channel().isWritable()) {
          written.awaitUninterruptibly(router.writeTimeoutMillis(), TimeUnit.MILLISECONDS);
        }
        piece = left > 0 ? nextPiece(ex, in, info, left, full) : null;
      }
      ex.finish(ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT));
    } catch (IOException | RuntimeException e) {
      router.readFailed(archive, info.name(), e);
      if (headSent) {
        ex.abort();
      } else {
        router.failed(ex, archive, info.name(), e);
      }
    }
  }

  /**
   * Up to {@link #CHUNK_BYTES} of the {@code left} bytes still to send, read from {@code in}. The
   * last piece of the whole content goes out only once the entry's CRC32C of all of it holds (the
   * stream checks it when read on at its end): a mismatch cuts the body short.
   */
  private static ByteBuf nextPiece(
      Exchange ex, InputStream in, EntryInfo info, long left, boolean whole) throws IOException {
    if (left == 0) {
      return null;
    }
    int n = (int) Math.min(CHUNK_BYTES, left);
    ByteBuf piece = ex.ctx.alloc().buffer(n);
    try {
      while (piece.readableBytes() < n) {
        if (piece.writeBytes(in, n - piece.readableBytes()) < 0) {
          throw new IOException("entry '" + info.name() + "' ended early");
        }
      }
      if (whole && left == n && in.read() >= 0) {
        throw new IOException("entry '" + info.name() + "' goes on past its length");
      }
      return piece;
    } catch (IOException | RuntimeException e) {
      piece.release();
      throw e;
    }
  }

  /** The content CRC32C as a quoted tag of eight hex digits. */
  static String etag(int crc) {
    return io.hpf.server.s3.Etags.ofCrc(crc);
  }

  private static final AsciiString AMZ_CHECKSUM_CRC32C =
      AsciiString.cached("x-amz-checksum-crc32c");

  /**
   * RFC 9110's conditional requests, in its order: If-Match, else If-Unmodified-Since (412 when
   * false); then If-None-Match, else If-Modified-Since (304 when false). Times are compared in
   * whole seconds, as Last-Modified gives them. False when answered here.
   */
  private static boolean preconditionsHold(
      Exchange ex, HttpResponse head, String etag, long mtimeMillis, String name) {
    HttpHeaders asked = ex.request.headers();
    String ifMatch = asked.get(HttpHeaderNames.IF_MATCH);
    long second = Math.floorDiv(mtimeMillis, 1000);
    boolean failed =
        ifMatch != null
            ? !matches(ifMatch, etag)
            : second
                > HttpDates.parseSecond(
                    asked.get(HttpHeaderNames.IF_UNMODIFIED_SINCE), Long.MAX_VALUE);
    if (failed) {
      head.setStatus(HttpResponseStatus.PRECONDITION_FAILED);
      ex.error(head, "entry '" + name + "' does not meet the request's precondition");
      return false;
    }
    String ifNoneMatch = asked.get(HttpHeaderNames.IF_NONE_MATCH);
    boolean unchanged =
        ifNoneMatch != null
            ? matches(ifNoneMatch, etag)
            : second
                <= HttpDates.parseSecond(
                    asked.get(HttpHeaderNames.IF_MODIFIED_SINCE), Long.MIN_VALUE);
    if (unchanged) {
      ex.send(HttpResponseStatus.NOT_MODIFIED, null, Unpooled.EMPTY_BUFFER, head);
      return false;
    }
    return true;
  }

  /** An S3 client asks for the checksum with {@code x-amz-checksum-mode: ENABLED}. */
  private static boolean checksumAsked(Exchange ex) {
    return "ENABLED".equalsIgnoreCase(ex.request.headers().get("x-amz-checksum-mode"));
  }

  /** S3's x-amz-checksum-crc32c: the content's CRC32C, big-endian, in base64. */
  private static String crc32cBase64(int crc) {
    return java.util.Base64.getEncoder()
        .encodeToString(java.nio.ByteBuffer.allocate(4).putInt(crc).array());
  }

  /** If-None-Match: '*' or a list holding our tag (weak or strong). */
  static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    for (String tag : ifNoneMatch.split(",")) {
      String t = tag.strip();
      if (t.startsWith("W/")) {
        t = t.substring(2);
      }
      if (t.equals("*") || t.equals(etag)) {
        return true;
      }
    }
    return false;
  }
}
