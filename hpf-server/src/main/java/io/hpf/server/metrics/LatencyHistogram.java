package io.hpf.server.metrics;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * Request latencies in fixed buckets, written in Prometheus's histogram form (cumulative {@code
 * _bucket} counts, {@code _sum}, {@code _count}). Lock-free: one adder per bucket.
 */
public final class LatencyHistogram {
  /** Upper bounds in seconds: from 50 µs (a warm small get) to 10 s (a large stream). */
  static final double[] BOUNDS = {
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
    2.5, 10
  };

  private final LongAdder[] buckets = new LongAdder[BOUNDS.length + 1];
  private final LongAdder sumNanos = new LongAdder();

  public LatencyHistogram() {
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = new LongAdder();
    }
  }

  public void record(long nanos) {
    double seconds = nanos / 1e9;
    int i = 0;
    while (i < BOUNDS.length && seconds > BOUNDS[i]) {
      i++;
    }
    buckets[i].increment();
    sumNanos.add(nanos);
  }

  /** Appends this histogram as {@code name} with the given label set ({@code route="get"}). */
  void write(StringBuilder out, String name, String labels) {
    long cumulative = 0;
    for (int i = 0; i < buckets.length; i++) {
      cumulative += buckets[i].sum();
      String le =
          i < BOUNDS.length ? java.math.BigDecimal.valueOf(BOUNDS[i]).toPlainString() : "+Inf";
      out.append(name)
          .append("_bucket{")
          .append(labels)
          .append(",le=\"")
          .append(le)
          .append("\"} ")
          .append(cumulative)
          .append('\n');
    }
    out.append(name).append("_sum{").append(labels).append("} ");
    out.append(String.format(Locale.ROOT, "%.6f", sumNanos.sum() / 1e9)).append('\n');
    out.append(name).append("_count{").append(labels).append("} ").append(cumulative).append('\n');
  }
}
