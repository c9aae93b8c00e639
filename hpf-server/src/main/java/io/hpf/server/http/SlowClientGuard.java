package io.hpf.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes connections that hold the server without using it: a request whose head and body have not
 * all arrived within the request timeout from its first byte (a client sending a byte at a time),
 * and a connection with nothing read or written for the idle timeout (fired by the {@link
 * io.netty.handler.timeout.IdleStateHandler} before it). First in the pipeline: it sees raw bytes.
 */
final class SlowClientGuard extends ChannelDuplexHandler {
  static final String NAME = "slow-client-guard";

  private final long requestTimeoutMillis;
  private ScheduledFuture<?> deadline;

  SlowClientGuard(long requestTimeoutMillis) {
    this.requestTimeoutMillis = requestTimeoutMillis;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (msg instanceof ByteBuf && deadline == null) {
      deadline =
          ctx.executor().schedule(() -> ctx.close(), requestTimeoutMillis, TimeUnit.MILLISECONDS);
    }
    super.channelRead(ctx, msg);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      ctx.close();
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    disarm();
    super.channelInactive(ctx);
  }

  private void disarm() {
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
  }

  /** A whole request arrived on {@code channel}: its deadline is off. On the event loop. */
  static void requestComplete(Channel channel) {
    SlowClientGuard guard = (SlowClientGuard) channel.pipeline().get(NAME);
    if (guard != null) {
      guard.disarm();
    }
  }
}
