package io.hpf.server.http;

import io.hpf.server.archives.ReaderPool;
import io.hpf.server.metrics.ServerMetrics;
import io.hpf.server.s3.S3Error;
import io.hpf.server.s3.S3Xml;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One request and its response: what the handlers write through, from the connection's event loop
 * or a worker thread (Netty queues writes from other threads onto the event loop in order). When
 * the last write is done the exchange completes once: it is counted, its archive lease and request
 * are released, and the connection moves on to its next request or closes.
 */
final class Exchange {
  private static final AsciiString SERVER = AsciiString.cached("hpf");

  final ChannelHandlerContext ctx;
  final FullHttpRequest request;
  private volatile boolean keepAlive;
  final long startNanos;
  private final ServerMetrics metrics;
  private final Runnable onDone;
  private final AtomicBoolean completed = new AtomicBoolean();
  private String route = "other";
  private int status;
  private ReaderPool.Lease lease;

  /** Set for a request in the S3 dialect: errors are S3's XML, answered for this. */
  private S3Target s3;

  /** What an S3 request names, and what a 404 means for it (no such key, or no such bucket). */
  record S3Target(String resource, String bucket, String key, S3Error missing, String requestId) {}

  private static final AtomicLong S3_REQUESTS = new AtomicLong(System.nanoTime());

  Exchange(
      ChannelHandlerContext ctx, FullHttpRequest request, ServerMetrics metrics, Runnable onDone) {
    this.ctx = ctx;
    this.request = request;
    this.keepAlive = HttpUtil.isKeepAlive(request);
    this.startNanos = System.nanoTime();
    this.metrics = metrics;
    this.onDone = onDone;
  }

  /** The connection closes after this response (a request that could not be read). */
  void closeAfterResponse() {
    keepAlive = false;
  }

  boolean isHead() {
    return request.method().equals(HttpMethod.HEAD);
  }

  void route(String name) {
    this.route = s3 == null ? name : "s3-" + name;
  }

  /**
   * From now on this exchange speaks S3: errors are XML with S3's codes, a 404 means {@code
   * missing}, and responses carry a request id.
   */
  void speakS3(String resource, String bucket, String key, S3Error missing) {
    String id = s3 != null ? s3.requestId() : Long.toHexString(S3_REQUESTS.incrementAndGet());
    s3 = new S3Target(resource, bucket, key, missing, id);
    route = route.startsWith("s3-") ? route : "s3-" + route;
  }

  boolean speaksS3() {
    return s3 != null;
  }

  /** The archive lease this request reads through, released when the exchange completes. */
  void hold(ReaderPool.Lease held) {
    this.lease = held;
  }

  ReaderPool.Lease lease() {
    return lease;
  }

  /** A new response with the headers every response carries. */
  HttpResponse head(HttpResponseStatus s) {
    HttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, s, false);
    r.headers().set(HttpHeaderNames.DATE, HttpDates.now());
    r.headers().set(HttpHeaderNames.SERVER, SERVER);
    HttpUtil.setKeepAlive(r, keepAlive);
    if (s3 != null) {
      r.headers().set(AMZ_REQUEST_ID, s3.requestId());
    }
    return r;
  }

  private static final AsciiString AMZ_REQUEST_ID = AsciiString.cached("x-amz-request-id");

  /**
   * Sends a whole response: body (none for HEAD) with its length and type, over the headers of
   * {@code headersFrom} when given (their object is reused, not copied).
   */
  void send(HttpResponseStatus s, String contentType, ByteBuf body, HttpResponse headersFrom) {
    HttpHeaders headers = (headersFrom != null ? headersFrom : head(s)).headers();
    FullHttpResponse r =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            s,
            isHead() ? Unpooled.EMPTY_BUFFER : body,
            headers,
            EmptyHttpHeaders.INSTANCE);
    if (contentType != null) {
      headers.set(HttpHeaderNames.CONTENT_TYPE, contentType);
    }
    if (!isHead() || !headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
      headers.set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    }
    HttpUtil.setKeepAlive(r, keepAlive);
    if (isHead()) {
      body.release();
    } else {
      metrics.bytesOut.add(body.readableBytes());
    }
    status = s.code();
    finish(ctx.writeAndFlush(r));
  }

  void sendText(HttpResponseStatus s, String contentType, String text) {
    send(s, contentType, Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8)), null);
  }

  /** An error with a message in hpf's words: JSON, or S3's XML for an S3 request. */
  void error(HttpResponseStatus s, String message) {
    error(head(s), message);
  }

  /** An error over the given head (its status and headers, e.g. Content-Range for a 416). */
  void error(HttpResponse head, String message) {
    if (s3 != null) {
      s3Error(S3Error.forStatus(head.status().code(), s3.missing()), message, head);
      return;
    }
    HttpResponseStatus s = head.status();
    send(s, "application/json", RequestRouter.utf8(Json.error(s.code(), message)), head);
  }

  /** An S3 error (once the exchange speaks S3): S3's status for the code and its XML body. */
  void s3Error(S3Error e, String message, HttpResponse head) {
    S3Target t = s3;
    HttpResponse h = head != null ? head : head(HttpResponseStatus.valueOf(e.status()));
    h.setStatus(HttpResponseStatus.valueOf(e.status()));
    boolean named = e == S3Error.NO_SUCH_KEY || e == S3Error.NO_SUCH_BUCKET;
    String xml =
        S3Xml.error(
            e,
            message,
            t.resource(),
            t.requestId(),
            named ? t.bucket() : null,
            e == S3Error.NO_SUCH_KEY ? t.key() : null);
    send(h.status(), "application/xml", RequestRouter.utf8(xml), h);
  }

  /** Sends the headers of a response whose body follows in writes of its own. */
  ChannelFuture sendHeaders(HttpResponse r) {
    status = r.status().code();
    return ctx.writeAndFlush(r);
  }

  /**
   * Queues the headers of a response whose body is written right after, without flushing: head and
   * body leave in one flush (a small head sent alone is a packet of its own).
   */
  void writeHeaders(HttpResponse r) {
    status = r.status().code();
    ctx.write(r, ctx.voidPromise());
  }

  /** Counts body bytes written by streaming handlers. */
  void countBytes(long n) {
    metrics.bytesOut.add(n);
  }

  /** Completes the exchange when {@code last} (its last write) is done. */
  void finish(ChannelFuture last) {
    last.addListener(
        (ChannelFutureListener)
            f -> {
              complete();
              if (!f.isSuccess() || !keepAlive) {
                f.channel().close();
              }
            });
  }

  /** Ends an exchange whose response could not be finished: the connection is closed. */
  void abort() {
    ctx.close();
    complete();
  }

  static void chunked(HttpResponse r) {
    r.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
  }

  private void complete() {
    if (!completed.compareAndSet(false, true)) {
      return;
    }
    metrics.request(route, status, System.nanoTime() - startNanos);
    if (lease != null) {
      lease.close();
    }
    request.release();
    if (ctx.executor().inEventLoop()) {
      onDone.run();
    } else {
      ctx.executor().execute(onDone);
    }
  }
}
