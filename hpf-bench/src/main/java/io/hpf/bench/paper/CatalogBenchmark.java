package io.hpf.bench.paper;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.bench.BenchOutput;
import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.testing.BenchmarkDoor;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The HFile paper's four measurements on hpf's catalog (its HFile-style sorted, block-indexed
 * file): sequential write, full scan, random seek (one row by name) and random short scan (30
 * consecutive rows from a random place). Rows are named {@code row-%010d} like HFile's keys.
 */
final class CatalogBenchmark {
  static final int SHORT_SCAN_ROWS = 30;

  private CatalogBenchmark() {}

  private static String rowName(long i) {
    return String.format(Locale.ROOT, "row-%010d", i);
  }

  /** The rows written: entries of 1,000 bytes, 700 apart in one part. */
  private static Iterator<EntryInfo> rows(int rows) {
    return java.util.stream.LongStream.range(0, rows)
        .mapToObj(
            i ->
                new EntryInfo(
                    rowName(i),
                    false,
                    1000,
                    600,
                    Codec.LZ4,
                    0,
                    0,
                    0644,
                    Map.of(),
                    1,
                    i * 700,
                    700,
                    0,
                    0))
        .iterator();
  }

  static void run(BenchOutput out, Storage storage, String fs, int rows, int probes)
      throws IOException {
    String file = "catalog-bench.hpfc";
    storage.delete(file);
    long start = System.nanoTime();
    long length;
    try (AppendableFile output = storage.create(file, FileUse.INDEX)) {
      length = BenchmarkDoor.writeCatalog(output, rows(rows));
    }
    record(out, fs, rows, "write", rows, System.nanoTime() - start);
    try (ReadableFile input = storage.openRead(file, io.hpf.store.Storage.FileUse.INDEX)) {
      BenchmarkDoor.Catalog reader = BenchmarkDoor.openCatalog(file, input, length, rows);
      start = System.nanoTime();
      long seen = 0;
      for (Iterator<EntryInfo> it = reader.list(""); it.hasNext(); it.next()) {
        seen++;
      }
      check(seen == rows, "full scan saw " + seen + " of " + rows + " rows");
      record(out, fs, rows, "full-scan", rows, System.nanoTime() - start);
      SplittableRandom random = new SplittableRandom(4);
      start = System.nanoTime();
      for (int i = 0; i < probes; i++) {
        String name = rowName(random.nextLong(rows));
        EntryInfo row = reader.find(name);
        check(row != null && row.name().equals(name), "random seek missed " + name);
      }
      record(out, fs, rows, "random-seek", probes, System.nanoTime() - start);
      start = System.nanoTime();
      for (int i = 0; i < probes; i++) {
        // 30 rows from a random place: a prefix that covers the next 100 names.
        long first = random.nextLong(Math.max(1, rows - 100)) / 100 * 100;
        String prefix = rowName(first).substring(0, "row-".length() + 8);
        Iterator<EntryInfo> it = reader.list(prefix);
        int n = 0;
        while (n < SHORT_SCAN_ROWS && it.hasNext()) {
          it.next();
          n++;
        }
        check(n == Math.min(SHORT_SCAN_ROWS, rows), "short scan read " + n + " rows");
      }
      record(out, fs, rows, "short-scan-30", probes, System.nanoTime() - start);
    } finally {
      storage.delete(file);
    }
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("catalog benchmark: " + what);
    }
  }

  private static void record(
      BenchOutput out, String fs, int rows, String operation, long operations, long nanos)
      throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("benchmark", "catalog");
    m.put("fs", fs);
    m.put("rows", rows);
    m.put("operation", operation);
    m.put("operations", operations);
    m.put("seconds", nanos / 1e9);
    m.put("microsPerOperation", nanos / 1e3 / operations);
    out.write(m);
  }
}
