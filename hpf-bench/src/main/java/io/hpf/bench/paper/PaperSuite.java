package io.hpf.bench.paper;

import io.hpf.bench.BenchOutput;
import io.hpf.bench.LocalTrees;
import io.hpf.bench.Stats;
import io.hpf.hadoop.ArchiveCosts;
import io.hpf.hadoop.NameNodeCost;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.SequenceFile.CompressionType;

/**
 * The paper suite: every dataset of a {@link Scale} stored by every {@link BenchSystem} on one file
 * system, with creation time, size, NameNode objects, warm and cold random gets (uniform and Zipf,
 * 10% misses), full scans, and the HFile paper's catalog measurements. Systems alternate (the order
 * rotates every repetition); each measurement is one JSON line. Every byte read is checked against
 * the dataset (CRC32 of each file): a system that returns wrong bytes fails the run.
 */
public final class PaperSuite {
  private final FileSystem fs;
  private final org.apache.hadoop.fs.Path root;
  private final String fsLabel;
  private final Scale scale;
  private final Path work;
  private final Path kernelDir;
  private final BenchOutput out;
  private final PrintStream log;
  private final List<BenchSystem> systems =
      List.of(
          new HpfSystem(true, HpfSystem.Packing.DEFAULT),
          new HpfSystem(false, HpfSystem.Packing.DEFAULT),
          new HpfSystem(true, HpfSystem.Packing.LZ4),
          new HpfSystem(true, HpfSystem.Packing.SOLID),
          new PlainFilesSystem(),
          new SequenceFileSystem(CompressionType.RECORD),
          new SequenceFileSystem(CompressionType.BLOCK),
          new MapFileSystem(),
          new HarSystem());

  /**
   * @param fsUri where archives go: {@code file:///tmp/b} or {@code hdfs://host:port/b}
   * @param work local scratch space for the staged datasets
   */
  public PaperSuite(
      URI fsUri,
      Configuration conf,
      Scale scale,
      Path work,
      Path kernelDir,
      BenchOutput out,
      PrintStream log)
      throws IOException {
    this.fs =
        fsUri.getScheme() == null || fsUri.getScheme().equals("file")
            ? FileSystem.getLocal(conf).getRaw()
            : FileSystem.newInstance(fsUri, conf);
    this.root = fs.makeQualified(new org.apache.hadoop.fs.Path(fsUri.getPath(), scale.label()));
    this.fsLabel = fs.getUri().getScheme();
    this.scale = scale;
    this.work = work;
    this.kernelDir = kernelDir;
    this.out = out;
    this.log = log;
  }

  public void run() throws Exception {
    fs.delete(root, true);
    for (Dataset dataset : Datasets.forScale(scale, kernelDir)) {
      runDataset(dataset);
    }
    CatalogBenchmark.run(
        out,
        new BenchTarget(fs, new org.apache.hadoop.fs.Path(root, "catalog")).storage(true),
        fsLabel,
        scale.catalogRows,
        scale.gets);
    fs.delete(root, true);
  }

  private void runDataset(Dataset dataset) throws Exception {
    log.println("paper suite: " + dataset.name() + ", " + dataset.size() + " files");
    Path staged = work.resolve("staged").resolve(dataset.name());
    Map<String, Long> crcs = new HashMap<>();
    List<String> names = new ArrayList<>();
    long bytes = stage(dataset, staged, names, crcs);
    Map<String, Object> base = new LinkedHashMap<>();
    base.put("fs", fsLabel);
    base.put("scale", scale.label());
    base.put("dataset", dataset.name());
    base.put("files", names.size());
    base.put("bytes", bytes);
    List<BenchSystem> order = new ArrayList<>(systems);
    for (int rep = 1; rep <= scale.repetitions; rep++) {
      for (BenchSystem system : order) {
        BenchTarget target = target(dataset, system, rep);
        long start = System.nanoTime();
        system.create(target, staged, names);
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Object> m = measurement(base, "create", system);
        m.put("repetition", rep);
        m.put("seconds", seconds);
        m.put("filesPerSecond", names.size() / seconds);
        m.put("bytesStored", fs.getContentSummary(target.path()).getLength());
        NameNodeCost cost = nameNodeCost(target);
        m.put("nnFiles", cost.files());
        m.put("nnDirectories", cost.directories());
        m.put("nnBlocks", cost.blocks());
        m.put("nnObjects", cost.objects());
        out.write(m);
        if (rep > 1) {
          fs.delete(target.path(), true);
        }
      }
      Collections.rotate(order, 1);
    }
    reads(dataset, base, names, crcs, bytes);
    LocalTrees.delete(staged);
  }

  private void reads(
      Dataset dataset,
      Map<String, Object> base,
      List<String> names,
      Map<String, Long> crcs,
      long bytes)
      throws Exception {
    Map<String, List<String>> lookups = new LinkedHashMap<>();
    lookups.put("uniform", Lookups.uniform(names, scale.gets, 11));
    lookups.put("zipf", Lookups.zipf(names, scale.gets, 12));
    List<BenchSystem> order = new ArrayList<>(systems);
    Map<String, double[]> samples = new LinkedHashMap<>();
    for (int round = 0; round < scale.repetitions; round++) {
      for (BenchSystem system : order) {
        BenchTarget target = target(dataset, system, 1);
        // SequenceFile reads from the start for every get: a few gets show what that costs.
        int limit =
            system instanceof SequenceFileSystem ? Math.max(5, scale.gets / 100) : scale.gets;
        for (Map.Entry<String, List<String>> e : lookups.entrySet()) {
          List<String> list = e.getValue().subList(0, Math.min(limit, e.getValue().size()));
          try (BenchSystem.Reader reader = system.open(target)) {
            long start = System.nanoTime();
            for (String name : list) {
              check(system, name, reader.get(name), crcs);
            }
            sample(samples, system, "warm-" + e.getKey(), list.size(), start, round);
          }
          List<String> cold = list.subList(0, Math.max(1, list.size() / 10));
          long start = System.nanoTime();
          for (String name : cold) {
            try (BenchSystem.Reader reader = system.open(target)) {
              check(system, name, reader.get(name), crcs);
            }
          }
          sample(samples, system, "cold-" + e.getKey(), cold.size(), start, round);
        }
        scan(dataset, system, target, bytes, samples, round);
      }
      Collections.rotate(order, 1);
    }
    for (Map.Entry<String, double[]> e : samples.entrySet()) {
      String[] key = e.getKey().split(" ", 3);
      Map<String, Object> m = new LinkedHashMap<>(base);
      m.put("benchmark", key[1].equals("scan") ? "scan" : "get");
      m.put("system", key[0]);
      m.put("kind", key[1]);
      m.put("operations", Integer.parseInt(key[2]));
      m.put("rounds", scale.repetitions);
      m.put("microsPerOperationMedian", Stats.median(e.getValue()));
      m.put("microsPerOperationRounds", Arrays.toString(e.getValue()));
      if (key[1].equals("scan")) {
        m.put("megabytesPerSecond", bytes / Stats.median(e.getValue()));
      }
      out.write(m);
    }
  }

  /** A full scan of the dataset, which must read every byte of it. */
  private void scan(
      Dataset dataset,
      BenchSystem system,
      BenchTarget target,
      long bytes,
      Map<String, double[]> samples,
      int round)
      throws Exception {
    try (BenchSystem.Reader reader = system.open(target)) {
      long start = System.nanoTime();
      long read = reader.scan();
      if (read != bytes) {
        throw new IllegalStateException(
            system.name()
                + ": a full scan of "
                + dataset.name()
                + " read "
                + read
                + " bytes, expected "
                + bytes);
      }
      sample(samples, system, "scan", 1, start, round);
    }
  }

  private void sample(
      Map<String, double[]> samples,
      BenchSystem system,
      String kind,
      int count,
      long start,
      int round) {
    double micros = (System.nanoTime() - start) / 1e3 / count;
    samples
            .computeIfAbsent(
                system.name() + " " + kind + " " + count, k -> new double[scale.repetitions])[
            round] =
        micros;
  }

  private static void check(BenchSystem system, String name, byte[] got, Map<String, Long> crcs) {
    Long expected = crcs.get(name);
    if (expected == null) {
      if (got != null) {
        throw new IllegalStateException(system.name() + ": found '" + name + "', which is absent");
      }
      return;
    }
    if (got == null || crc(got) != expected) {
      throw new IllegalStateException(
          system.name()
              + ": wrong content for '"
              + name
              + "' ("
              + (got == null ? "missing" : got.length + " bytes")
              + ")");
    }
  }

  private BenchTarget target(Dataset dataset, BenchSystem system, int rep) {
    return new BenchTarget(
        fs, new org.apache.hadoop.fs.Path(root, dataset.name() + "/" + system.name() + "-" + rep));
  }

  /** The NameNode's count on HDFS; on local disk what HDFS would hold (128 MiB blocks). */
  private NameNodeCost nameNodeCost(BenchTarget target) throws IOException {
    if (!target.isLocal()) {
      return ArchiveCosts.counted(fs, target.path());
    }
    var summary = fs.getContentSummary(target.path());
    long blocks = 0;
    var files = fs.listFiles(target.path(), true);
    while (files.hasNext()) {
      blocks += NameNodeCost.blocksOf(files.next().getLen(), NameNodeCost.DEFAULT_BLOCK_SIZE);
    }
    return new NameNodeCost(summary.getFileCount(), summary.getDirectoryCount(), blocks);
  }

  private Map<String, Object> measurement(Map<String, Object> base, String what, BenchSystem s) {
    Map<String, Object> m = new LinkedHashMap<>(base);
    m.put("benchmark", what);
    m.put("system", s.name());
    return m;
  }

  /** Writes the dataset under {@code dir}; returns its bytes and fills names and CRCs. */
  private static long stage(Dataset dataset, Path dir, List<String> names, Map<String, Long> crcs)
      throws IOException {
    LocalTrees.delete(dir);
    long bytes = 0;
    for (Iterator<GeneratedFile> it = dataset.files(); it.hasNext(); ) {
      GeneratedFile f = it.next();
      Path file = dir.resolve(f.name());
      Files.createDirectories(file.getParent());
      Files.write(file, f.content());
      names.add(f.name());
      crcs.put(f.name(), crc(f.content()));
      bytes += f.content().length;
    }
    return bytes;
  }

  private static long crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }
}
