package io.hpf.server.http;

import io.hpf.server.metrics.ServerMetrics;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * One connection's requests, answered one at a time in the order they came: a pipelined request
 * waits until the response before it is written, so responses never cross whichever thread produces
 * them. All state here is touched on the connection's event loop only.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {
  /** Requests read ahead of their turn; more than this and the connection stops reading. */
  private static final int MAX_PIPELINED = 16;

  private final RequestRouter router;
  private final ServerMetrics metrics;
  private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
  private boolean busy;

  RequestHandler(RequestRouter router, ServerMetrics metrics) {
    this.router = router;
    this.metrics = metrics;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof FullHttpRequest request)) {
      ReferenceCountUtil.release(msg);
      return;
    }
    SlowClientGuard.requestComplete(ctx.channel());
    if (busy) {
      waiting.add(request);
      if (waiting.size() >= MAX_PIPELINED) {
        ctx.channel().config().setAutoRead(false);
      }
      return;
    }
    start(ctx, request);
  }

  private void start(ChannelHandlerContext ctx, FullHttpRequest request) {
    busy = true;
    Exchange exchange = new Exchange(ctx, request, metrics, () -> next(ctx));
    router.handle(exchange);
  }

  private void next(ChannelHandlerContext ctx) {
    busy = false;
    FullHttpRequest request = waiting.poll();
    if (!ctx.channel().config().isAutoRead() && waiting.size() < MAX_PIPELINED / 2) {
      ctx.channel().config().setAutoRead(true);
    }
    if (request != null) {
      if (ctx.channel().isActive()) {
        start(ctx, request);
      } else {
        request.release();
      }
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    FullHttpRequest r;
    while ((r = waiting.poll()) != null) {
      r.release();
    }
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A reset by the client, a write timeout: nothing to answer; the connection is done.
    ctx.close();
  }
}
