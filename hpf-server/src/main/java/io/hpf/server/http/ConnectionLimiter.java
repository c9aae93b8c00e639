package io.hpf.server.http;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.util.concurrent.atomic.AtomicInteger;

/** Closes a new connection at once when {@code max} are open; counts the open ones. */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
  private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("hpf.counted");

  private final int max;
  private final AtomicInteger open = new AtomicInteger();

  ConnectionLimiter(int max) {
    this.max = max;
  }

  int open() {
    return open.get();
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    if (open.incrementAndGet() > max) {
      open.decrementAndGet();
      ctx.close();
      return;
    }
    ctx.channel().attr(COUNTED).set(Boolean.TRUE);
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (ctx.channel().attr(COUNTED).getAndSet(null) != null) {
      open.decrementAndGet();
    }
    super.channelInactive(ctx);
  }
}
