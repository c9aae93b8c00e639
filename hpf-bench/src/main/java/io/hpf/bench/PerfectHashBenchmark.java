package io.hpf.bench;

import io.hpf.testing.BenchmarkDoor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Build speed, query time and size of the perfect hash. Usage: {@code PerfectHashBenchmark
 * OUT.jsonl [keys...]}. Each size is built 5 times (median reported); queries are timed over 10M
 * random member lookups after a warm-up.
 */
public final class PerfectHashBenchmark {
  private PerfectHashBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchArgs flags = BenchArgs.parse("PerfectHashBenchmark", args, "out", "keys");
    BenchOutput out = new BenchOutput(flags.path("out"), flags.commandLine());
    int[] sizes = flags.integers("keys", 65_536, 1_000_000);
    for (int n : sizes) {
      long[] keys = new long[n];
      SplittableRandom random = new SplittableRandom(n);
      for (int i = 0; i < n; i++) {
        keys[i] = random.nextLong();
      }
      for (int w = 0; w < 3; w++) {
        BenchmarkDoor.perfectHash(keys); // warm-up: let the JIT compile the build loop
      }
      double[] buildSeconds = new double[5];
      BenchmarkDoor.Hash hash = null;
      for (int r = 0; r < buildSeconds.length; r++) {
        long t0 = System.nanoTime();
        hash = BenchmarkDoor.perfectHash(keys);
        buildSeconds[r] = (System.nanoTime() - t0) / 1e9;
      }
      int queries = 10_000_000;
      int[] order = new int[1 << 20];
      for (int i = 0; i < order.length; i++) {
        order[i] = random.nextInt(n);
      }
      long sink = 0;
      for (int i = 0; i < 2_000_000; i++) {
        sink += hash.slot(keys[order[i & (order.length - 1)]]);
      }
      double[] queryNanos = new double[5];
      for (int r = 0; r < queryNanos.length; r++) {
        long t0 = System.nanoTime();
        for (int i = 0; i < queries; i++) {
          sink += hash.slot(keys[order[i & (order.length - 1)]]);
        }
        queryNanos[r] = (System.nanoTime() - t0) / (double) queries;
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("benchmark", "perfect-hash");
      m.put("keys", n);
      m.put("build_seconds_median", Stats.median(buildSeconds));
      m.put("build_keys_per_second", n / Stats.median(buildSeconds));
      m.put("query_ns_median", Stats.median(queryNanos));
      m.put("bits_per_key", hash.bitsPerKey());
      m.put("checksum", sink & 0xFF);
      out.write(m);
    }
  }
}
