package io.hpf.server;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The server's log: one line per event on stderr, time first, in hpf's words (no stack traces).
 * Requests are not logged one by one: {@code /_metrics} counts them.
 */
public final class ServerLog {
  private ServerLog() {}

  public static void info(String message) {
    line("INFO", message);
  }

  public static void warn(String message) {
    line("WARN", message);
  }

  private static void line(String level, String message) {
    System.err.println(
        Instant.now().truncatedTo(ChronoUnit.MILLIS) + " " + level + " hpf serve: " + message);
  }
}
