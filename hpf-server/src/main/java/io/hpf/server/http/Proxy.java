package io.hpf.server.http;

import io.hpf.server.ring.RingMember;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Forwards a request to the archive's owner and relays the answer ({@code --proxy}), for clients
 * that cannot follow redirects. Runs on a worker; the body is relayed in chunks as it arrives.
 */
final class Proxy {
  private static final List<String> FORWARDED =
      List.of("range", "if-none-match", "if-match", "if-range", "authorization", "content-type");
  private static final List<String> RELAYED =
      List.of(
          "content-type",
          "content-length",
          "content-range",
          "etag",
          "last-modified",
          "accept-ranges",
          "location",
          "www-authenticate");

  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(5))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  void forward(Exchange ex, RingMember owner, RequestRouter router) throws IOException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(owner.baseUri() + ex.request.uri()))
            .timeout(Duration.ofSeconds(60));
    for (String name : FORWARDED) {
      String v = ex.request.headers().get(name);
      if (v != null) {
        b.header(name, v);
      }
    }
    byte[] body = UploadBody.bytes(ex);
    b.method(
        ex.request.method().name(),
        body.length == 0
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    java.net.http.HttpResponse<InputStream> answer =
        ask(client, b.build(), java.net.http.HttpResponse.BodyHandlers.ofInputStream(), ex, owner);
    if (answer == null) {
      return;
    }
    HttpResponse head = ex.head(HttpResponseStatus.valueOf(answer.statusCode()));
    for (String name : RELAYED) {
      answer.headers().firstValue(name).ifPresent(v -> head.headers().set(name, v));
    }
    if (!head.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
      Exchange.chunked(head);
    }
    try (InputStream in = answer.body()) {
      ex.sendHeaders(head);
      while (true) {
        ByteBuf chunk = ex.ctx.alloc().buffer(64 * 1024);
        int n = chunk.writeBytes(in, 64 * 1024);
        if (n < 0) {
          chunk.release();
          break;
        }
        ex.countBytes(n);
        ChannelFuture written = ex.ctx.writeAndFlush(new DefaultHttpContent(chunk));
        if (!ex.ctx.channel().isWritable()) {
          written.awaitUninterruptibly(router.writeTimeoutMillis(), TimeUnit.MILLISECONDS);
        }
      }
      ex.finish(ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT));
    } catch (IOException e) {
      ex.abort();
    }
  }

  /**
   * Sends a request on to an archive's owner; null when the owner did not answer, which {@code ex}
   * has then been answered (502).
   */
  static <T> java.net.http.HttpResponse<T> ask(
      HttpClient client,
      HttpRequest request,
      java.net.http.HttpResponse.BodyHandler<T> body,
      Exchange ex,
      RingMember owner)
      throws IOException {
    try {
      return client.send(request, body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + owner.id(), e);
    } catch (IOException e) {
      ex.error(
          HttpResponseStatus.BAD_GATEWAY,
          "the archive's server " + owner.id() + " (" + owner.address() + ") did not answer");
      return null;
    }
  }
}
