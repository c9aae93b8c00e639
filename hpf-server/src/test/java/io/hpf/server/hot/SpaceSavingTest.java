package io.hpf.server.hot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Space-Saving and its sliding window against exact counts of skewed streams. */
class SpaceSavingTest {
  /** Keys drawn from a Zipf distribution over {@code n} keys with exponent {@code s}. */
  static String[] zipfStream(int length, int n, double s, long seed) {
    double[] cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1 / Math.pow(i + 1, s);
      cumulative[i] = sum;
    }
    SplittableRandom random = new SplittableRandom(seed);
    String[] out = new String[length];
    for (int k = 0; k < length; k++) {
      double u = random.nextDouble() * sum;
      int lo = 0;
      int hi = n - 1;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (cumulative[mid] < u) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      out[k] = "key-" + lo;
    }
    return out;
  }

  static Map<String, Long> exact(String[] stream, int from, int to) {
    Map<String, Long> counts = new HashMap<>();
    for (int i = from; i < to; i++) {
      counts.merge(stream[i], 1L, Long::sum);
    }
    return counts;
  }

  @Test
  void countsAreWithinTheBoundAndEveryFrequentKeyIsMonitored() {
    for (double s : new double[] {0.8, 1.1, 1.5}) {
      String[] stream = zipfStream(200_000, 50_000, s, 7);
      int m = 500;
      SpaceSaving summary = new SpaceSaving(m);
      for (String key : stream) {
        summary.offer(key);
      }
      Map<String, Long> truth = exact(stream, 0, stream.length);
      long bound = stream.length / m;
      Map<String, SpaceSaving.Counter> monitored = new HashMap<>();
      for (SpaceSaving.Counter c : summary.counters()) {
        monitored.put(c.key(), c);
        long t = truth.getOrDefault(c.key(), 0L);
        assertTrue(c.count() >= t, "estimate below the true count for " + c.key());
        assertTrue(c.count() <= t + bound, "estimate over the bound for " + c.key());
        assertTrue(c.count() - c.error() <= t, "guaranteed count above the true one");
      }
      assertEquals(m, monitored.size());
      truth.forEach(
          (key, t) -> {
            if (t > bound) {
              assertTrue(monitored.containsKey(key), key + " seen " + t + " times, not monitored");
            }
          });
      assertEquals(stream.length, summary.offered());
    }
  }

  @Test
  void theTopOfASkewedStreamIsItsMostFrequentKeys() {
    String[] stream = zipfStream(100_000, 10_000, 1.2, 3);
    AtomicLong now = new AtomicLong();
    SlidingTopK top = new SlidingTopK(60, 6, 256, now::get);
    for (String key : stream) {
      top.offer(key);
    }
    List<SlidingTopK.Ranked> ranked = top.top(10);
    // Zipf's ten most likely keys are key-0..key-9; at this skew their counts are far apart.
    for (int i = 0; i < 5; i++) {
      assertEquals("key-" + i, ranked.get(i).key());
    }
    Map<String, Long> truth = exact(stream, 0, stream.length);
    for (SlidingTopK.Ranked r : ranked) {
      long t = truth.get(r.key());
      assertTrue(r.count() >= t && r.count() <= t + stream.length / 256, r.toString());
    }
  }

  @Test
  void theWindowForgetsOldPopularityAndMergedSlicesKeepTheBound() {
    AtomicLong now = new AtomicLong();
    int m = 64;
    SlidingTopK top = new SlidingTopK(600, 6, m, now::get); // slices of 100 ticks
    String[] old = zipfStream(30_000, 5_000, 1.1, 1);
    for (String key : old) {
      top.offer("old-" + key);
    }
    String[] recent = zipfStream(60_000, 5_000, 1.1, 2);
    int perSlice = recent.length / 6;
    for (int slice = 0; slice < 6; slice++) {
      now.set(1000 + 100L * slice);
      for (int i = slice * perSlice; i < (slice + 1) * perSlice; i++) {
        top.offer("new-" + recent[i]);
      }
    }
    // The window now covers ticks 1000-1599: the old stream (tick 0) is gone.
    assertEquals(recent.length, top.offeredInWindow());
    Map<String, Long> truth = exact(recent, 0, recent.length);
    for (SlidingTopK.Ranked r : top.top(20)) {
      assertTrue(r.key().startsWith("new-"), r.key());
      long t = truth.get(r.key().substring(4));
      assertTrue(r.count() >= t, r + " below true " + t);
      assertTrue(r.count() <= t + recent.length / m, r + " over the bound, true " + t);
    }
    // Three slices later half of the recent stream has left the window too.
    now.set(1000 + 100L * 8);
    assertEquals(recent.length - 3L * perSlice, top.offeredInWindow());
    now.set(10_000);
    assertEquals(0, top.offeredInWindow());
    assertTrue(top.top(5).isEmpty());
  }
}
