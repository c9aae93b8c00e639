package io.hpf.bench;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.pack.LocalSourceTree;
import io.hpf.pack.Packer;
import io.hpf.pack.SourceTree.SourceFile;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Group sizes measured (FORMAT.md "Group"): for each setting, a tree is packed as {@code hpf
 * create} packs it (zstd with a trained dictionary unless the setting names a codec, all cores),
 * and the archive's bytes, the pack time and warm random gets are measured, with plain-file gets of
 * the same names in the same round as the reference. Settings and plain files alternate within each
 * round; medians over rounds.
 *
 * <p>Usage: {@code GroupBenchmark OUT.jsonl WORK_DIR SETTINGS ROUNDS DIR...}, SETTINGS a
 * ';'-separated list of {@code groupBytes,entryMaxBytes[,codec]} (0,0: no groups; codec zstd unless
 * named: none, lz4, zstd).
 */
public final class GroupBenchmark {
  private static final int GETS_PER_ROUND = 100_000;

  private GroupBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchArgs flags =
        BenchArgs.parse("GroupBenchmark", args, "out", "work", "settings", "rounds", "tree");
    BenchOutput out = new BenchOutput(flags.path("out"), flags.commandLine());
    Path work = flags.path("work");
    String[] settings = flags.string("settings").split(";");
    int rounds = flags.integer("rounds");
    for (String treeName : flags.all("tree")) {
      Path tree = Path.of(treeName);
      List<SourceFile> files = LocalTrees.files(tree);
      List<String> names = files.stream().map(SourceFile::name).toList();
      long rawBytes = files.stream().mapToLong(SourceFile::size).sum();
      Map<String, List<double[]>> results = new LinkedHashMap<>();
      Map<String, Long> archiveBytes = new LinkedHashMap<>();
      for (int round = 0; round <= rounds; round++) {
        double plain = gets(n -> Files.readAllBytes(tree.resolve(n)), names, round);
        for (String setting : settings) {
          double[] packedAndGets = packAndGet(work, tree, names, setting, round, archiveBytes);
          double packSeconds = packedAndGets[0];
          double hpf = packedAndGets[1];
          if (round > 0) { // round 0 warms up the page cache and the JIT
            results
                .computeIfAbsent(setting, k -> new ArrayList<>())
                .add(new double[] {packSeconds, hpf, plain, hpf / plain});
          }
        }
      }
      for (String setting : settings) {
        List<double[]> r = results.get(setting);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", "groups");
        m.put("tree", tree.getFileName().toString());
        m.put("files", names.size());
        m.put("rawBytes", rawBytes);
        m.put("setting", setting);
        m.put("archiveBytes", archiveBytes.get(setting));
        m.put("archivePercent", 100.0 * archiveBytes.get(setting) / rawBytes);
        m.put("packSecondsMedian", median(r, 0));
        m.put("getsPerSecondMedian", median(r, 1));
        m.put("plainGetsPerSecondMedian", median(r, 2));
        m.put("getsVersusPlainMedian", median(r, 3));
        m.put("rounds", rounds);
        out.write(m);
      }
    }
  }

  /**
   * Packs {@code tree} with one setting ({@code bytes,entryMax[,codec]}), records the archive's
   * size, and measures warm gets; returns {packing seconds, gets per second}.
   */
  private static double[] packAndGet(
      Path work,
      Path tree,
      List<String> names,
      String setting,
      int round,
      Map<String, Long> archiveBytes)
      throws Exception {
    String[] p = setting.split(",");
    WriterOptions options =
        WriterOptions.builder()
            .codec(p.length > 2 ? Codec.parse(p[2]) : Codec.ZSTD)
            .groups(Integer.parseInt(p[0]), Integer.parseInt(p[1]))
            .build();
    Path archive = work.resolve("g-" + p[0] + "-" + p[1] + ".hpf");
    LocalTrees.delete(archive);
    long t0 = System.nanoTime();
    try (LocalStorage target = LocalStorage.createDirectories(archive)) {
      Packer.pack(
          LocalSourceTree.of(tree),
          target,
          options,
          Packer.Options.defaults(),
          ProgressListener.NONE);
    }
    double packSeconds = (System.nanoTime() - t0) / 1e9;
    long bytes = 0;
    try (LocalStorage written = LocalStorage.open(archive)) {
      for (StoredFile f : written.list()) {
        bytes += f.lengthBytes();
      }
    }
    archiveBytes.put(setting, bytes);
    double hpf;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      for (String n : names) {
        reader.get(n); // the warm state: every bucket loaded, pages cached
      }
      hpf = gets(reader::get, names, round);
    }
    return new double[] {packSeconds, hpf};
  }

  private static double median(List<double[]> rows, int column) {
    return Stats.median(rows.stream().mapToDouble(x -> x[column]).toArray());
  }

  interface Getter {
    byte[] get(String name) throws IOException;
  }

  /** Random gets of one thread, uniform over the names: gets per second. */
  private static double gets(Getter getter, List<String> names, long seed) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    long sum = 0;
    long t0 = System.nanoTime();
    for (int i = 0; i < GETS_PER_ROUND; i++) {
      sum += getter.get(names.get(random.nextInt(names.size()))).length;
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (sum < 0) {
      throw new AssertionError();
    }
    return GETS_PER_ROUND / seconds;
  }
}
