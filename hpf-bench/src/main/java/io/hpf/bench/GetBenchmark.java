package io.hpf.bench;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictDecompress;
import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.pack.DictionaryTrainer;
import io.hpf.pack.Packer;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Warm random gets of small files from the page cache: hpf (codec none, a new archive's default and
 * zstd with a dictionary) against the same files read as plain files (open, read, close) and
 * against {@link ZipFile} on zips of the same files (stored and deflated). Systems alternate within
 * each round; medians over rounds are reported, for one thread and for all cores.
 *
 * <p>hpf reads local files through memory mappings by default; "hpf-none-pread" is the same archive
 * read with one pread system call per read, as on a file system without mmap. "hpf-default-CODEC"
 * is packed as {@code hpf create} packs by default. "zstd-decode-only" is the floor of a zstd get:
 * each file as a zstd frame (level 3, with a dictionary trained as the packer trains it) held in
 * memory, decoded with a kept context, no lookup and no I/O.
 *
 * <p>Usage: {@code GetBenchmark OUT.jsonl SOURCE_DIR WORK_DIR [maxFiles] [rounds]}. Files of 1 to 8
 * KiB under SOURCE_DIR are used (the kernel tree's median is 3.9 KB).
 */
public final class GetBenchmark {
  private static final int GETS_PER_ROUND = 200_000;

  private GetBenchmark() {}

  interface Getter {
    byte[] get(String name) throws IOException;
  }

  record System(
      String name,
      Getter getter,
      AutoCloseable resource,
      double heapBytesPerEntry,
      double indexBytesPerEntry) {}

  public static void main(String[] args) throws Exception {
    BenchArgs flags =
        BenchArgs.parse("GetBenchmark", args, "out", "source", "work", "files", "rounds");
    BenchOutput out = new BenchOutput(flags.path("out"), flags.commandLine());
    Path source = flags.path("source");
    Path work = flags.path("work");
    int maxFiles = flags.integer("files", 50_000);
    int rounds = flags.integer("rounds", 5);

    Path subset = work.resolve("subset");
    List<String> names = copySubset(source, subset, maxFiles);
    List<System> systems = systems(subset, work, names);

    for (int threads : new int[] {1, Runtime.getRuntime().availableProcessors()}) {
      Map<String, List<double[]>> results = new LinkedHashMap<>();
      for (int round = 0; round <= rounds; round++) {
        for (System s : systems) {
          double[] r = measure(s.getter, names, threads, round);
          if (round > 0) { // round 0 warms up every system
            results.computeIfAbsent(s.name, k -> new ArrayList<>()).add(r);
          }
        }
      }
      for (System s : systems) {
        List<double[]> r = results.get(s.name);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", "warm-get");
        m.put("system", s.name);
        m.put("threads", threads);
        m.put("entries", names.size());
        m.put("rounds", rounds);
        m.put("gets_per_second_median", Stats.median(r.stream().mapToDouble(x -> x[0]).toArray()));
        m.put("p50_us_median", Stats.median(r.stream().mapToDouble(x -> x[1]).toArray()));
        m.put("p99_us_median", Stats.median(r.stream().mapToDouble(x -> x[2]).toArray()));
        m.put("heap_bytes_per_entry", s.heapBytesPerEntry);
        m.put("index_bytes_per_entry", s.indexBytesPerEntry);
        out.write(m);
      }
    }
    for (System s : systems) {
      s.resource.close();
    }
  }

  /**
   * The systems compared, each packed or opened from the same subset: plain files, hpf raw (mapped
   * and with positional reads), zip stored, hpf zstd with a dictionary, hpf's local default, zstd
   * decoding alone, zip deflated.
   */
  private static List<System> systems(Path subset, Path work, List<String> names) throws Exception {
    Path hpfNone = work.resolve("none.hpf");
    Path hpfZstd = work.resolve("zstd.hpf");
    Path hpfDefault = work.resolve("default.hpf");
    Path zipStored = work.resolve("stored.zip");
    Path zipDeflated = work.resolve("deflated.zip");
    pack(subset, hpfNone, Codec.NONE);
    pack(subset, hpfZstd, Codec.ZSTD);
    pack(subset, hpfDefault, null); // what hpf create writes
    zip(subset, names, zipStored, ZipEntry.STORED);
    zip(subset, names, zipDeflated, ZipEntry.DEFLATED);

    List<System> systems = new ArrayList<>();
    systems.add(
        new System("plain-files", n -> Files.readAllBytes(subset.resolve(n)), () -> {}, 0, 0));
    systems.add(openHpf("hpf-none", LocalStorage.open(hpfNone), names));
    systems.add(openHpf("hpf-none-pread", LocalStorage.open(hpfNone).withPositionalReads(), names));
    systems.add(openZip("zip-stored", zipStored, names));
    systems.add(openHpf("hpf-zstd-dict", LocalStorage.open(hpfZstd), names));
    systems.add(
        openHpf(
            "hpf-default-" + WriterOptions.LOCAL_DEFAULT_CODEC.displayName(),
            LocalStorage.open(hpfDefault),
            names));
    systems.add(zstdDecodeOnly(subset, names));
    systems.add(openZip("zip-deflated", zipDeflated, names));
    return systems;
  }

  /** Returns {gets/s, p50 µs, p99 µs}. */
  private static double[] measure(Getter getter, List<String> names, int threads, long seed)
      throws Exception {
    int perThread = GETS_PER_ROUND / threads;
    long[][] latencies = new long[threads][perThread];
    AtomicLong checksum = new AtomicLong();
    List<Thread> workers = new ArrayList<>();
    Exception[] failure = new Exception[1];
    long t0 = java.lang.System.nanoTime();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread worker =
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(seed * 31 + id);
                long sum = 0;
                try {
                  for (int i = 0; i < perThread; i++) {
                    String name = names.get(random.nextInt(names.size()));
                    long start = java.lang.System.nanoTime();
                    byte[] content = getter.get(name);
                    latencies[id][i] = java.lang.System.nanoTime() - start;
                    sum += content.length;
                  }
                } catch (Exception e) {
                  failure[0] = e;
                }
                checksum.addAndGet(sum);
              });
      workers.add(worker);
      worker.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    double seconds = (java.lang.System.nanoTime() - t0) / 1e9;
    if (failure[0] != null) {
      throw failure[0];
    }
    long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
    return new double[] {
      all.length / seconds, Stats.percentile(all, 50) / 1000.0, Stats.percentile(all, 99) / 1000.0
    };
  }

  private static long heapUsed() {
    for (int i = 0; i < 3; i++) {
      java.lang.System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static System openHpf(String label, LocalStorage archive, List<String> names)
      throws IOException {
    long before = heapUsed();
    ArchiveReader reader = ArchiveReader.open(archive);
    for (String n : names) {
      reader.get(n); // loads every bucket's perfect hash: the warm state
    }
    long after = heapUsed();
    return new System(
        label,
        reader::get,
        reader,
        (after - before) / (double) names.size(),
        reader.indexMemoryBytes() / (double) names.size());
  }

  private static System zstdDecodeOnly(Path subset, List<String> names) throws IOException {
    List<byte[]> contents = new ArrayList<>();
    for (String n : names) {
      contents.add(Files.readAllBytes(subset.resolve(n)));
    }
    byte[] dictionary = DictionaryTrainer.train(LocalTrees.files(subset));
    Map<String, byte[]> frames = new HashMap<>();
    Map<String, Integer> lengths = new HashMap<>();
    try (var compressor = new ZstdCompressCtx()) {
      compressor
          .setLevel(io.hpf.archive.model.ArchiveSettings.DEFAULT_ZSTD_LEVEL)
          .setChecksum(false)
          .loadDict(dictionary);
      for (int i = 0; i < names.size(); i++) {
        frames.put(names.get(i), compressor.compress(contents.get(i)));
        lengths.put(names.get(i), contents.get(i).length);
      }
    }
    ZstdDictDecompress digested = new ZstdDictDecompress(dictionary);
    ThreadLocal<ZstdDecompressCtx> contexts =
        ThreadLocal.withInitial(() -> new ZstdDecompressCtx().loadDict(digested));
    Getter getter =
        n -> {
          byte[] frame = frames.get(n);
          byte[] content = new byte[lengths.get(n)];
          contexts.get().decompressByteArray(content, 0, content.length, frame, 0, frame.length);
          return content;
        };
    return new System("zstd-decode-only", getter, () -> {}, Double.NaN, Double.NaN);
  }

  private static System openZip(String label, Path file, List<String> names) throws IOException {
    long before = heapUsed();
    ZipFile zip = new ZipFile(file.toFile());
    for (String n : names) {
      zip.getEntry(n);
    }
    long after = heapUsed();
    Getter getter =
        n -> {
          try (InputStream in = zip.getInputStream(zip.getEntry(n))) {
            return in.readAllBytes();
          }
        };
    return new System(label, getter, zip, (after - before) / (double) names.size(), Double.NaN);
  }

  private static List<String> copySubset(Path source, Path subset, int maxFiles)
      throws IOException {
    List<Path> files;
    try (var walk = Files.walk(source)) {
      files =
          walk.filter(Files::isRegularFile)
              .filter(
                  p -> {
                    try {
                      long size = Files.size(p);
                      return size >= 1024 && size <= 8192;
                    } catch (IOException e) {
                      return false;
                    }
                  })
              .sorted(Comparator.comparing(Path::toString))
              .limit(maxFiles)
              .toList();
    }
    List<String> names = new ArrayList<>();
    if (Files.exists(subset)) {
      throw new IOException(subset + " exists; use an empty work directory");
    }
    for (Path f : files) {
      String name = source.relativize(f).toString();
      Path target = subset.resolve(name);
      Files.createDirectories(target.getParent());
      Files.copy(f, target);
      names.add(name);
    }
    return names;
  }

  /** Packs as {@code hpf create} does; {@code codec} null: a new archive's. */
  private static void pack(Path subset, Path archive, Codec codec) throws IOException {
    Packer.pack(
        subset,
        LocalStorage.createDirectories(archive),
        WriterOptions.builder().codec(codec).build(),
        Packer.Options.defaults(),
        ProgressListener.NONE);
  }

  private static void zip(Path subset, List<String> names, Path file, int method)
      throws IOException {
    try (OutputStream raw = Files.newOutputStream(file);
        ZipOutputStream zip = new ZipOutputStream(raw)) {
      for (String name : names) {
        byte[] content = Files.readAllBytes(subset.resolve(name));
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(method);
        if (method == ZipEntry.STORED) {
          CRC32 crc = new CRC32();
          crc.update(content);
          entry.setSize(content.length);
          entry.setCompressedSize(content.length);
          entry.setCrc(crc.getValue());
        }
        zip.putNextEntry(entry);
        zip.write(content);
        zip.closeEntry();
      }
    }
  }
}
