package io.hpf.server.http;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * HTTP dates in RFC 9110's IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}), written by hand:
 * every response carries one or two, and a formatter costs more than the rest of a small response's
 * headers. The current date is made once a second.
 */
final class HttpDates {
  private HttpDates() {}

  private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
  private static final String[] MONTHS = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
  };

  private record Cached(long second, String text) {}

  private static volatile Cached now = new Cached(Long.MIN_VALUE, "");

  /** Recently formatted seconds, by second (direct-mapped): entries share mtimes. */
  private static final AtomicReferenceArray<Cached> RECENT = new AtomicReferenceArray<>(1024);

  static String format(long epochMillis) {
    long second = Math.floorDiv(epochMillis, 1000);
    int slot = (int) (second & 1023);
    Cached c = RECENT.get(slot);
    if (c != null && c.second() == second) {
      return c.text();
    }
    String text = formatSecond(second);
    RECENT.set(slot, new Cached(second, text));
    return text;
  }

  private static String formatSecond(long second) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(second, 0, ZoneOffset.UTC);
    StringBuilder out = new StringBuilder(29);
    out.append(DAYS[t.getDayOfWeek().getValue() - 1]).append(", ");
    two(out, t.getDayOfMonth()).append(' ');
    out.append(MONTHS[t.getMonthValue() - 1]).append(' ');
    int year = t.getYear();
    if (year < 1000 || year > 9999) {
      year = Math.max(1000, Math.min(9999, year)); // the format has four digits
    }
    out.append(year).append(' ');
    two(out, t.getHour()).append(':');
    two(out, t.getMinute()).append(':');
    two(out, t.getSecond()).append(" GMT");
    return out.toString();
  }

  private static StringBuilder two(StringBuilder out, int n) {
    return out.append((char) ('0' + n / 10)).append((char) ('0' + n % 10));
  }

  /**
   * The second an HTTP date names (IMF-fixdate, as every client sends it), or {@code otherwise}
   * when there is none or it cannot be read: RFC 9110 has such a condition ignored.
   */
  static long parseSecond(String date, long otherwise) {
    if (date == null || date.length() > 64) {
      return otherwise;
    }
    try {
      return java.time.ZonedDateTime.parse(date.strip(), DateTimeFormatter.RFC_1123_DATE_TIME)
          .toEpochSecond();
    } catch (DateTimeParseException e) {
      return otherwise;
    }
  }

  /** The Date header for now. */
  static String now() {
    long second = System.currentTimeMillis() / 1000;
    Cached c = now;
    if (c.second() != second) {
      c = new Cached(second, formatSecond(second));
      now = c;
    }
    return c.text();
  }
}
