package io.hpf.bench;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.pack.LocalSourceTree;
import io.hpf.pack.Packer;
import io.hpf.pack.SourceTree.SourceFile;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Cold gets by codec: what a new reader per get costs against a plain open-read-close, and against
 * a kept reader's get, for a tree packed as {@code hpf create} packs it with zstd (and its trained
 * dictionary), LZ4 and no compression. Separates the cost of opening from the cost of decoding:
 * plain files and every codec alternate within each round, on the same random names; medians over
 * rounds (round 0 warms the page cache and the JIT and is left out).
 *
 * <p>Usage: {@code ColdGetBenchmark OUT.jsonl WORK_DIR ROUNDS GETS DIR...}
 */
public final class ColdGetBenchmark {
  private static final List<Codec> CODECS = List.of(Codec.ZSTD, Codec.LZ4, Codec.NONE);

  private ColdGetBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchArgs flags =
        BenchArgs.parse("ColdGetBenchmark", args, "out", "work", "rounds", "gets", "tree");
    BenchOutput out = new BenchOutput(flags.path("out"), flags.commandLine());
    Path work = flags.path("work");
    int rounds = flags.integer("rounds");
    int gets = flags.integer("gets");
    for (String treeName : flags.all("tree")) {
      Path tree = Path.of(treeName);
      List<SourceFile> files = LocalTrees.files(tree);
      List<String> names = files.stream().map(SourceFile::name).toList();
      Map<Codec, Path> archives = packEveryCodec(work, tree);
      Map<String, List<Double>> micros = new LinkedHashMap<>();
      for (int round = 0; round <= rounds; round++) {
        List<String> list = randomNames(names, gets, round);
        double plain = microsPerGet(list, n -> Files.readAllBytes(tree.resolve(n)));
        record(micros, round, "plain", plain);
        for (Map.Entry<Codec, Path> a : archives.entrySet()) {
          String codec = name(a.getKey());
          double cold =
              microsPerGet(
                  list,
                  n -> {
                    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(a.getValue()))) {
                      return r.get(n);
                    }
                  });
          double warm;
          try (ArchiveReader kept = ArchiveReader.open(LocalStorage.open(a.getValue()))) {
            warm = microsPerGet(list, kept::get);
          }
          record(micros, round, codec + " cold", cold);
          record(micros, round, codec + " warm", warm);
        }
      }
      double plain = Stats.median(values(micros.get("plain")));
      for (Codec codec : CODECS) {
        String c = name(codec);
        double cold = Stats.median(values(micros.get(c + " cold")));
        double warm = Stats.median(values(micros.get(c + " warm")));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", "cold-get");
        m.put("tree", tree.getFileName().toString());
        m.put("files", names.size());
        m.put("codec", c);
        m.put("getsPerRound", gets);
        m.put("rounds", rounds);
        m.put("plainMicrosMedian", plain);
        m.put("coldMicrosMedian", cold);
        m.put("warmMicrosMedian", warm);
        m.put("coldVersusPlain", cold / plain);
        m.put("warmVersusPlain", warm / plain);
        m.put("coldMicrosRounds", micros.get(c + " cold").toString());
        m.put("plainMicrosRounds", micros.get("plain").toString());
        out.write(m);
      }
    }
  }

  /** The tree packed once with each codec, as {@code hpf create --codec} does. */
  private static Map<Codec, Path> packEveryCodec(Path work, Path tree) throws Exception {
    Map<Codec, Path> archives = new LinkedHashMap<>();
    for (Codec codec : CODECS) {
      Path archive = work.resolve(tree.getFileName() + "-" + name(codec) + ".hpf");
      LocalTrees.delete(archive);
      try (LocalStorage target = LocalStorage.createDirectories(archive)) {
        Packer.pack(
            LocalSourceTree.of(tree),
            target,
            WriterOptions.builder().codec(codec).build(),
            new Packer.Options(Runtime.getRuntime().availableProcessors(), false, false, true),
            ProgressListener.NONE);
      }
      archives.put(codec, archive);
    }
    return archives;
  }

  private static String name(Codec codec) {
    return codec.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static void record(Map<String, List<Double>> micros, int round, String key, double v) {
    if (round > 0) {
      micros.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
    }
  }

  private static double[] values(List<Double> list) {
    return list.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static List<String> randomNames(List<String> names, int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> list = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      list.add(names.get(random.nextInt(names.size())));
    }
    return list;
  }

  interface Getter {
    byte[] get(String name) throws IOException;
  }

  /** Gets of one thread through {@code getter}: microseconds per get. */
  private static double microsPerGet(List<String> list, Getter getter) throws IOException {
    long sum = 0;
    long t0 = System.nanoTime();
    for (String name : list) {
      sum += getter.get(name).length;
    }
    double micros = (System.nanoTime() - t0) / 1e3 / list.size();
    if (sum < 0) {
      throw new AssertionError();
    }
    return micros;
  }
}
