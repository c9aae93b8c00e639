package io.hpf.server.http;

import io.hpf.server.ServerOptions;
import io.hpf.server.metrics.ServerMetrics;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;

/**
 * Each connection's pipeline: the connection limit, the slow-client guard and idle timeout, the
 * HTTP/1.1 codec with bounded request line and headers, the aggregator (bodies for _mget and, on a
 * writable server, PUTs, up to their limits; it answers {@code Expect: 100-continue}) and the
 * connection's request handler.
 */
public final class HttpServerInitializer extends ChannelInitializer<SocketChannel> {
  /** Room past the largest object for an aws-chunked body's chunk headers and trailer. */
  private static final int CHUNKING_ROOM = 1 << 20;

  private final ServerOptions options;
  private final RequestRouter router;
  private final ServerMetrics metrics;
  private final ConnectionLimiter limiter;

  public HttpServerInitializer(ServerOptions options, RequestRouter router, ServerMetrics metrics) {
    this.options = options;
    this.router = router;
    this.metrics = metrics;
    this.limiter = new ConnectionLimiter(options.maxConnections);
    metrics.gauge("hpf_connections", "Client connections open now.", limiter::open);
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    ChannelPipeline p = ch.pipeline();
    p.addLast(limiter);
    p.addLast(new IdleStateHandler(0, 0, options.idleConnectionMillis, TimeUnit.MILLISECONDS));
    p.addLast(SlowClientGuard.NAME, new SlowClientGuard(options.requestTimeoutMillis));
    p.addLast(new HttpServerCodec(8192, options.maxHeaderBytes, 8192));
    p.addLast(
        new HttpObjectAggregator(
            options.writable
                ? Math.max(options.maxMgetBodyBytes, options.maxObjectBytes + CHUNKING_ROOM)
                : options.maxMgetBodyBytes,
            true));
    p.addLast(new RequestHandler(router, metrics));
  }
}
