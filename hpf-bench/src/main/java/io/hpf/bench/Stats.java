package io.hpf.bench;

import java.util.Arrays;

/** Medians and percentiles of samples. */
public final class Stats {
  private Stats() {}

  public static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int i = (int) Math.min(sorted.length - 1, Math.round(p / 100.0 * (sorted.length - 1)));
    return sorted[i];
  }

  public static double median(double[] values) {
    double[] copy = values.clone();
    Arrays.sort(copy);
    int n = copy.length;
    return n % 2 == 1 ? copy[n / 2] : (copy[n / 2 - 1] + copy[n / 2]) / 2;
  }
}
