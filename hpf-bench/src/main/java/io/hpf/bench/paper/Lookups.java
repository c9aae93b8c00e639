package io.hpf.bench.paper;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Names to look up in a dataset: uniform over the names, or Zipf-distributed (s = 1, the popularity
 * skew of web and file workloads, as TýrFS measures), each with 10% names that are not there.
 * Deterministic for a seed.
 */
public final class Lookups {
  /** The share of lookups for names that do not exist. */
  public static final double MISS_RATIO = 0.10;

  private Lookups() {}

  public static List<String> uniform(List<String> names, int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(
          random.nextDouble() < MISS_RATIO ? missing(i) : names.get(random.nextInt(names.size())));
    }
    return out;
  }

  /**
   * Zipf with exponent 1 over the names in a seeded random order (so popularity does not follow
   * name order), by inverting the cumulative distribution with a binary search.
   */
  public static List<String> zipf(List<String> names, int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int n = names.size();
    List<String> ranked = new ArrayList<>(names);
    java.util.Collections.shuffle(ranked, new java.util.Random(seed));
    double[] cumulative = new double[n];
    double sum = 0;
    for (int k = 0; k < n; k++) {
      sum += 1.0 / (k + 1);
      cumulative[k] = sum;
    }
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      if (random.nextDouble() < MISS_RATIO) {
        out.add(missing(i));
        continue;
      }
      double u = random.nextDouble() * sum;
      int k = java.util.Arrays.binarySearch(cumulative, u);
      out.add(ranked.get(k >= 0 ? k : Math.min(n - 1, -k - 1)));
    }
    return out;
  }

  private static String missing(int i) {
    return "no/such/file-" + i;
  }
}
