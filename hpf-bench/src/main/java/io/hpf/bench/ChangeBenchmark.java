package io.hpf.bench;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Archives that change. (1) Adding 1,000 files to archives of 10k, 100k and 1M entries against
 * creating a 1,000-entry archive: time and bytes written, medians of 5. (2) Warm lookups in a
 * 100k-entry archive split into 1, 4 and 16 segments: reads per get (hits and misses), p50 and p99.
 * Usage: {@code ChangeBenchmark OUT.jsonl WORK_DIR [baseSizes...]}.
 */
public final class ChangeBenchmark {
  private static final int BATCH = 1000;
  private static final int REPS = 5;

  private ChangeBenchmark() {}

  static byte[] content(String name) {
    byte[] seed =
        (name + " 2026-11-22T10:00:00 INFO request served status=200\n")
            .getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[512];
    for (int i = 0; i < out.length; i++) {
      out[i] = seed[i % seed.length];
    }
    return out;
  }

  static WriterOptions options(boolean autoCompact) {
    return WriterOptions.builder()
        .codec(Codec.LZ4)
        .gracePeriodMillis(0)
        .autoCompact(autoCompact)
        .build();
  }

  public static void main(String[] args) throws Exception {
    BenchArgs flags = BenchArgs.parse("ChangeBenchmark", args, "out", "work", "sizes");
    BenchOutput out = new BenchOutput(flags.path("out"), flags.commandLine());
    Path work = flags.path("work");
    int[] sizes = flags.integers("sizes", 10_000, 100_000, 1_000_000);

    warmUp(work);
    createBaseline(out, work);
    for (int base : sizes) {
      addTo(out, work, base);
    }
    for (int segments : new int[] {1, 4, 16}) {
      getsOver(out, work, segments);
    }
  }

  /** The JIT compiles the write path before anything is measured: no system is handicapped. */
  private static void warmUp(Path work) throws IOException {
    for (int r = 0; r < 3; r++) {
      LocalStorage s = LocalStorage.createDirectories(work.resolve("warmup-" + r + ".hpf"));
      for (int k = 0; k < 3; k++) {
        try (ArchiveWriter w =
            k == 0
                ? ArchiveWriter.create(s, options(true))
                : ArchiveWriter.open(s, options(true))) {
          for (int i = 0; i < BATCH; i++) {
            w.add("w" + k + "/" + i, content("w/" + i), EntryMetadata.of(0));
          }
          w.commit();
        }
      }
    }
  }

  /** Baseline: a 1,000-entry archive created from scratch. */
  private static void createBaseline(BenchOutput out, Path work) throws IOException {
    double[] createSeconds = new double[REPS];
    long createBytes = 0;
    for (int r = 0; r < REPS; r++) {
      LocalStorage s = LocalStorage.createDirectories(work.resolve("create-" + r + ".hpf"));
      long t0 = System.nanoTime();
      try (ArchiveWriter w = ArchiveWriter.create(s, options(true))) {
        for (int i = 0; i < BATCH; i++) {
          w.add("batch/" + i, content("batch/" + i), EntryMetadata.of(0));
        }
        w.commit();
      }
      createSeconds[r] = (System.nanoTime() - t0) / 1e9;
      createBytes = totalBytes(s);
    }
    out.write(
        Map.of(
            "benchmark",
            "add-1k",
            "base_entries",
            0,
            "seconds_median",
            Stats.median(createSeconds),
            "bytes_written",
            createBytes));
  }

  /** Adding 1,000 entries to an archive of {@code base}. */
  private static void addTo(BenchOutput out, Path work, int base) throws IOException {
    LocalStorage s = LocalStorage.createDirectories(work.resolve("base-" + base + ".hpf"));
    try (ArchiveWriter w = ArchiveWriter.create(s, options(true))) {
      for (int i = 0; i < base; i++) {
        w.add("base/" + i, content("base/" + i), EntryMetadata.of(0));
      }
      w.commit();
    }
    double[] seconds = new double[REPS];
    long[] written = new long[REPS];
    for (int r = 0; r < REPS; r++) {
      Map<String, Long> before = sizes(s);
      long t0 = System.nanoTime();
      try (ArchiveWriter w = ArchiveWriter.open(s, options(true))) {
        for (int i = 0; i < BATCH; i++) {
          String name = "add" + r + "/" + i;
          w.add(name, content(name), EntryMetadata.of(0));
        }
        w.commit();
      }
      seconds[r] = (System.nanoTime() - t0) / 1e9;
      written[r] = newBytes(before, sizes(s));
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("benchmark", "add-1k");
    m.put("base_entries", base);
    m.put("seconds_median", Stats.median(seconds));
    m.put("bytes_written_median", (double) Arrays.stream(written).sorted().toArray()[REPS / 2]);
    m.put("archive_bytes", totalBytes(s));
    out.write(m);
  }

  /** Gets, hits and misses, through an archive of {@code segments} segments. */
  private static void getsOver(BenchOutput out, Path work, int segments) throws IOException {
    int total = 100_000;
    LocalStorage s = LocalStorage.createDirectories(work.resolve("seg-" + segments + ".hpf"));
    int per = total / segments;
    for (int k = 0; k < segments; k++) {
      try (ArchiveWriter w =
          k == 0
              ? ArchiveWriter.create(s, options(false))
              : ArchiveWriter.open(s, options(false))) {
        for (int i = k * per; i < (k + 1) * per; i++) {
          w.add("e/" + i, content("e/" + i), EntryMetadata.of(0));
        }
        w.commit();
      }
    }
    CountingStorage counting = new CountingStorage(s);
    try (ArchiveReader reader = ArchiveReader.open(counting)) {
      SplittableRandom random = new SplittableRandom(segments);
      for (int i = 0; i < 200_000; i++) { // warm: every bucket loaded
        reader.get("e/" + random.nextInt(total));
      }
      for (boolean hit : new boolean[] {true, false}) {
        int gets = 200_000;
        long[] latency = new long[gets];
        long reads0 = counting.reads.get();
        for (int i = 0; i < gets; i++) {
          String name = hit ? "e/" + random.nextInt(total) : "missing/" + i;
          long t0 = System.nanoTime();
          boolean found = hit ? reader.get(name).length > 0 : reader.stat(name) != null;
          latency[i] = System.nanoTime() - t0;
          if (found != hit) {
            throw new IllegalStateException("wrong answer for " + name);
          }
        }
        Arrays.sort(latency);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", "segments-get");
        m.put("segments", reader.manifest().segmentCount());
        m.put("kind", hit ? "hit" : "miss");
        m.put("reads_per_get", (counting.reads.get() - reads0) / (double) gets);
        m.put("p50_us", Stats.percentile(latency, 50) / 1000.0);
        m.put("p99_us", Stats.percentile(latency, 99) / 1000.0);
        out.write(m);
      }
    }
  }

  private static Map<String, Long> sizes(LocalStorage s) throws IOException {
    Map<String, Long> sizes = new HashMap<>();
    for (StoredFile f : s.list()) {
      sizes.put(f.name(), f.lengthBytes());
    }
    return sizes;
  }

  /** Bytes of files that are new or grew (parts are never rewritten). */
  private static long newBytes(Map<String, Long> before, Map<String, Long> after) {
    long total = 0;
    for (Map.Entry<String, Long> e : after.entrySet()) {
      total += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
    }
    return total;
  }

  private static long totalBytes(LocalStorage s) throws IOException {
    return s.list().stream().mapToLong(StoredFile::lengthBytes).sum();
  }
}
