package io.hpf.server.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** HTTP dates (RFC 9110's IMF-fixdate); the current one is formatted once a second. */
final class HttpDates {
  private HttpDates() {}

  private static final DateTimeFormatter IMF = DateTimeFormatter.RFC_1123_DATE_TIME;

  private record Cached(long second, String text) {}

  private static volatile Cached now = new Cached(-1, "");

  static String format(long epochMillis) {
    return IMF.format(Instant.ofEpochMilli(epochMillis).atOffset(ZoneOffset.UTC));
  }

  /** The Date header for now. */
  static String now() {
    long second = System.currentTimeMillis() / 1000;
    Cached c = now;
    if (c.second() != second) {
      c = new Cached(second, format(second * 1000));
      now = c;
    }
    return c.text();
  }
}
