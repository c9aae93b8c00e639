package io.hpf.bench.scale;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.VerifyReport;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.bench.Stats;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The scale benchmark's phases, each in a JVM of its own started by {@link ScaleCommand}: {@code
 * create} (the archive through the normal writer), {@code open} (the first open in a fresh process,
 * and the memory a warm reader holds), {@code measure} (gets, misses, a listing, an add, a
 * compaction, a verify). Each prints its figures as {@code key=value} lines. And {@code names}, for
 * the engines' figures ({@code scripts/bench-scale-engines.sh}): prints the names of entries chosen
 * at random, one a line (the last argument is how many, not a size).
 */
public final class ScaleRun {
  private static final EntryMetadata META = EntryMetadata.of(1_700_000_000_000L);
  private static final int SAMPLES = 100_000;

  private ScaleRun() {}

  public static void main(String[] args) throws Exception {
    String phase = args[0];
    Path dir = Path.of(args[1]);
    long entries = Long.parseLong(args[2]);
    int size = Integer.parseInt(args[3]);
    Map<String, Object> figures;
    if (phase.equals("create")) {
      figures = create(dir, entries, size);
    } else if (phase.equals("open")) {
      figures = open(dir, entries);
    } else if (phase.equals("measure")) {
      figures = measure(dir, entries, size);
    } else if (phase.equals("names")) {
      SplittableRandom random = new SplittableRandom(7);
      for (int k = 0; k < size; k++) {
        System.out.println(GeneratedEntries.name(random.nextLong(entries)));
      }
      return;
    } else {
      throw new IllegalArgumentException("no phase " + phase);
    }
    figures.forEach((k, v) -> System.out.println(k + "=" + v));
  }

  static Map<String, Object> create(Path dir, long entries, int size) throws IOException {
    GeneratedEntries generated = new GeneratedEntries(size);
    long start = System.nanoTime();
    long cpuStart = cpuNanos();
    try (ArchiveWriter w =
        ArchiveWriter.create(
            LocalStorage.createDirectories(dir), WriterOptions.builder().build())) {
      for (long i = 0; i < entries; i++) {
        w.add(GeneratedEntries.name(i), generated.content(i), generated.length(i), META);
      }
      w.commit();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpuSeconds = (cpuNanos() - cpuStart) / 1e9;
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("create_s", seconds);
    f.put("entries_per_s", entries / seconds);
    f.put("create_cpu_s", cpuSeconds);
    f.put("entries_per_cpu_s", entries / cpuSeconds); // per core: every thread's time, GC's too
    f.put(
        "archive_bytes",
        LocalStorage.open(dir).list().stream().mapToLong(StoredFile::lengthBytes).sum());
    return f;
  }

  /** The CPU time of this process so far, every thread's. */
  private static long cpuNanos() {
    return ProcessHandle.current()
        .info()
        .totalCpuDuration()
        .orElseThrow(() -> new IllegalStateException("no CPU time on this system"))
        .toNanos();
  }

  /**
   * The first open in this fresh JVM (and the open with a first entry read), and what the reader
   * holds once warm: heap and direct memory after a GC, less what they held before the open. Mapped
   * files (the index's pages in the page cache) are not counted, as no peer counts its files.
   */
  static Map<String, Object> open(Path dir, long entries) throws IOException, InterruptedException {
    long before = heldMemory();
    long start = System.nanoTime();
    ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir));
    double openMillis = (System.nanoTime() - start) / 1e6;
    reader.get(GeneratedEntries.name(entries / 2));
    double firstReadMillis = (System.nanoTime() - start) / 1e6;
    SplittableRandom random = new SplittableRandom(1);
    for (int k = 0; k < SAMPLES; k++) {
      reader.get(GeneratedEntries.name(random.nextLong(entries)));
      reader.stat(GeneratedEntries.missing(random.nextLong(entries)));
    }
    long after = heldMemory();
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("open_ms", openMillis);
    f.put("first_read_ms", firstReadMillis); // the open and one entry read: the codecs' start
    f.put("reader_bytes", after - before);
    f.put("reader_bytes_per_entry", (after - before) / (double) entries);
    f.put("index_memory_bytes", reader.indexMemoryBytes());
    reader.close();
    return f;
  }

  private static long heldMemory() throws InterruptedException {
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(50);
    }
    long held = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        held += pool.getMemoryUsed();
      }
    }
    return held;
  }

  static Map<String, Object> measure(Path dir, long entries, int size) throws IOException {
    Map<String, Object> f = new LinkedHashMap<>();
    SplittableRandom random = new SplittableRandom(2);
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      GeneratedEntries generated = new GeneratedEntries(size);
      for (int k = 0; k < SAMPLES; k++) { // warm: compiled, index pages in the page cache
        reader.get(GeneratedEntries.name(random.nextLong(entries)));
      }
      long[] gets = new long[SAMPLES];
      for (int k = 0; k < SAMPLES; k++) {
        long i = random.nextLong(entries);
        long start = System.nanoTime();
        byte[] content = reader.get(GeneratedEntries.name(i));
        gets[k] = System.nanoTime() - start;
        if (content.length != generated.length(i)) {
          throw new IOException("entry " + i + " has " + content.length + " bytes");
        }
      }
      long[] misses = new long[SAMPLES];
      for (int k = 0; k < SAMPLES; k++) {
        String missing = GeneratedEntries.missing(random.nextLong(entries));
        long start = System.nanoTime();
        EntryInfo row = reader.stat(missing);
        misses[k] = System.nanoTime() - start;
        if (row != null) {
          throw new IOException(missing + " is there");
        }
      }
      Arrays.sort(gets);
      Arrays.sort(misses);
      f.put("get_p50_us", Stats.percentile(gets, 50) / 1e3);
      f.put("get_p99_us", Stats.percentile(gets, 99) / 1e3);
      f.put("miss_p50_us", Stats.percentile(misses, 50) / 1e3);
      f.put("list_prefix_ms", listPrefixMillis(reader, entries, random));
    }
    f.put("add_1k_s", addThousand(dir, entries, size));
    long start = System.nanoTime();
    try (ArchiveWriter w =
        ArchiveWriter.open(LocalStorage.open(dir), WriterOptions.builder().build())) {
      w.compact(false);
    }
    f.put("compact_s", (System.nanoTime() - start) / 1e9);
    start = System.nanoTime();
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE);
    if (!report.ok()) {
      throw new IOException("verify found problems: " + report.problems());
    }
    f.put("verify_s", (System.nanoTime() - start) / 1e9);
    return f;
  }

  /** The median time of listing a whole directory of about a thousand names (21 of them). */
  private static double listPrefixMillis(ArchiveReader reader, long entries, SplittableRandom r)
      throws IOException {
    long full = entries / GeneratedEntries.PER_DIRECTORY * GeneratedEntries.PER_DIRECTORY;
    long[] times = new long[21];
    for (int k = 0; k < times.length; k++) {
      long i = r.nextLong(Math.max(1, full));
      long start = System.nanoTime();
      int n = 0;
      for (Iterator<EntryInfo> it = reader.list(GeneratedEntries.directory(i)); it.hasNext(); ) {
        it.next();
        n++;
      }
      times[k] = System.nanoTime() - start;
      if (full > 0 && n != GeneratedEntries.PER_DIRECTORY) {
        throw new IOException(GeneratedEntries.directory(i) + " lists " + n + " names");
      }
    }
    Arrays.sort(times);
    return Stats.percentile(times, 50) / 1e6;
  }

  /** Seconds to add a thousand entries as a user's add does: open, add, commit, close. */
  private static double addThousand(Path dir, long entries, int size) throws IOException {
    GeneratedEntries generated = new GeneratedEntries(size);
    long start = System.nanoTime();
    try (ArchiveWriter w =
        ArchiveWriter.open(LocalStorage.open(dir), WriterOptions.builder().build())) {
      for (long i = entries; i < entries + 1000; i++) {
        w.add(GeneratedEntries.name(i), generated.content(i), generated.length(i), META);
      }
      w.commit();
    }
    return (System.nanoTime() - start) / 1e9;
  }
}
