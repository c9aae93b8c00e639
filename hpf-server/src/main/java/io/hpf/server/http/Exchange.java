package io.hpf.server.http;

import io.hpf.server.archives.ReaderPool;
import io.hpf.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
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
    this.route = name;
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
    return r;
  }

  /**
   * Sends a whole response: body (none for HEAD) with its length and type, over the headers of
   * {@code headersFrom} when given (their object is reused, not copied).
   */
  void send(HttpResponseStatus s, String contentType, ByteBuf body, HttpResponse headersFrom) {
    HttpHeaders headers;
    if (headersFrom != null) {
      headers = headersFrom.headers();
    } else {
      headers = new DefaultHttpHeaders(false);
      headers.set(HttpHeaderNames.DATE, HttpDates.now());
      headers.set(HttpHeaderNames.SERVER, SERVER);
    }
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

  /** An error as JSON with a message in hpf's words. */
  void error(HttpResponseStatus s, String message) {
    sendText(s, "application/json", Json.error(s.code(), message));
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
