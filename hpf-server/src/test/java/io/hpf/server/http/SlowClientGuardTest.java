package io.hpf.server.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Where the request deadline falls, on a channel whose clock the test moves: from a request's first
 * byte, off once the request is whole, on again at the next request's first byte.
 */
class SlowClientGuardTest {
  private static final long TIMEOUT_MILLIS = 500;

  private static EmbeddedChannel channel() {
    EmbeddedChannel channel = new EmbeddedChannel();
    channel.freezeTime();
    channel.pipeline().addLast(SlowClientGuard.NAME, new SlowClientGuard(TIMEOUT_MILLIS));
    return channel;
  }

  private static void receive(EmbeddedChannel channel, String bytes) {
    channel.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.US_ASCII));
    channel.readInbound(); // the guard passes bytes on: drop them
  }

  private static void advance(EmbeddedChannel channel, long millis) {
    channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();
  }

  @Test
  void anIncompleteRequestIsClosedAtItsDeadlineFromItsFirstByte() {
    EmbeddedChannel channel = channel();
    receive(channel, "GET /a HTTP/1.1\r\n");
    advance(channel, 300);
    receive(channel, "Host: x\r\n"); // more bytes do not move the deadline
    advance(channel, TIMEOUT_MILLIS - 300 - 1);
    assertTrue(channel.isOpen(), "closed before the deadline");
    advance(channel, 1);
    assertFalse(channel.isOpen(), "open past the deadline");
  }

  @Test
  void aCompleteRequestDisarmsTheDeadlineUntilTheNextRequestStarts() {
    EmbeddedChannel channel = channel();
    receive(channel, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
    SlowClientGuard.requestComplete(channel);
    advance(channel, 10 * TIMEOUT_MILLIS); // a keep-alive connection waiting between requests
    assertTrue(channel.isOpen(), "a connection between requests was cut by the request deadline");
    receive(channel, "GET /b HTTP/1.1\r\n");
    advance(channel, TIMEOUT_MILLIS - 1);
    assertTrue(channel.isOpen());
    advance(channel, 1);
    assertFalse(channel.isOpen(), "the second request's deadline did not hold");
  }

  @Test
  void anIdleConnectionIsClosed() {
    EmbeddedChannel channel = channel();
    channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
    assertFalse(channel.isOpen());
  }
}
