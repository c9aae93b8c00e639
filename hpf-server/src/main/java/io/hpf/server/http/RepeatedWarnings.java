package io.hpf.server.http;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Warnings that repeat (a damaged entry asked for again and again) are said once per interval, with
 * how many times they came since: a client retrying one damaged entry would otherwise write a line
 * per request (10,000 requests, 2 MB of log). Thread-safe. At most {@link #MAX_KEYS} warnings are
 * remembered; past that the oldest interval's are forgotten, so memory stays bounded whatever the
 * requests.
 */
final class RepeatedWarnings {
  static final int MAX_KEYS = 10_000;

  private final long intervalNanos;
  private final LongSupplier nanoClock;
  private final Map<String, long[]> seen = new HashMap<>(); // key -> {said at, times since}

  RepeatedWarnings(long intervalNanos, LongSupplier nanoClock) {
    this.intervalNanos = intervalNanos;
    this.nanoClock = nanoClock;
  }

  /**
   * The line to log for {@code message} now, or null if it was said less than an interval ago (it
   * is then counted). A line said again after its interval tells how many times it came meanwhile.
   */
  synchronized String line(String message) {
    long now = nanoClock.getAsLong();
    long[] said = seen.get(message);
    if (said != null && now - said[0] < intervalNanos) {
      said[1]++;
      return null;
    }
    if (said == null && seen.size() >= MAX_KEYS) {
      seen.values().removeIf(s -> now - s[0] >= intervalNanos);
      if (seen.size() >= MAX_KEYS) {
        seen.clear(); // a flood of distinct warnings: start again rather than grow
      }
    }
    long times = said == null ? 0 : said[1];
    seen.put(message, new long[] {now, 0});
    return times == 0 ? message : message + " (" + times + " more times since it was last logged)";
  }

  /** How many warnings are remembered now (at most {@link #MAX_KEYS}). */
  synchronized int remembered() {
    return seen.size();
  }
}
