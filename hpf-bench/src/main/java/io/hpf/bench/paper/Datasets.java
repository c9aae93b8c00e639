package io.hpf.bench.paper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * The datasets of the papers, generated deterministically (file i depends only on the dataset and
 * i, through its own seeded generator):
 *
 * <ul>
 *   <li>{@code hpf-logs}: log files with lognormal sizes from 1 KiB to 10 MiB (median 4 KiB, mean
 *       about 14 KiB, so 100k files are about 1.4 GB like the HPF paper's), lines of timestamps,
 *       levels, threads and messages;
 *   <li>{@code sf-text-30k} and {@code sf-text-1m}: text of about 30 KB and 1 MB made of words from
 *       Debian's word list (wamerican), as SFMapReduce's WordCount data;
 *   <li>{@code tyr-32k}: 32 KiB of random bytes each, incompressible, as TýrFS's;
 *   <li>{@code kernel}: the Linux kernel source tree, read from where scripts/install-corpora.sh
 *       unpacked it.
 * </ul>
 */
public final class Datasets {
  static final Path WORD_LIST = Path.of("/usr/share/dict/words");

  private Datasets() {}

  /** A dataset whose file i is {@code generator.apply(i)}. */
  record Generated(String name, int size, String description, IntFunction<GeneratedFile> generator)
      implements Dataset {
    @Override
    public Iterator<GeneratedFile> files() {
      return new Iterator<>() {
        int next;

        @Override
        public boolean hasNext() {
          return next < size;
        }

        @Override
        public GeneratedFile next() {
          if (next >= size) {
            throw new NoSuchElementException();
          }
          return generator.apply(next++);
        }
      };
    }
  }

  /** The datasets of a scale; the kernel only if {@code kernelDir} holds it. */
  public static List<Dataset> forScale(Scale scale, Path kernelDir) throws IOException {
    List<String> words = words();
    List<Dataset> all = new ArrayList<>();
    all.add(logs(scale.logFiles));
    all.add(text("sf-text-30k", scale.text30kFiles, 30_000, words));
    all.add(text("sf-text-1m", scale.text1mFiles, 1_000_000, words));
    all.add(random32k(scale.tyrFiles));
    if (kernelDir != null && Files.isDirectory(kernelDir)) {
      all.add(kernel(kernelDir, scale.kernelFiles));
    }
    return all;
  }

  private static SplittableRandom randomFor(String dataset, int index) {
    // A fixed, published mix (not String.hashCode): the dataset's bytes summed with the index.
    long seed = 0x9E3779B97F4A7C15L * (index + 1);
    for (byte b : dataset.getBytes(StandardCharsets.UTF_8)) {
      seed = seed * 31 + b;
    }
    return new SplittableRandom(seed);
  }

  static Dataset logs(int count) {
    String[] levels = {"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    String[] words = {
      "request", "served", "user", "cache", "miss", "hit", "block", "replica", "timeout", "retry",
      "commit", "segment", "client", "latency", "bytes"
    };
    return new Generated(
        "hpf-logs",
        count,
        "log lines, lognormal sizes 1 KiB-10 MiB (median 4 KiB)",
        i -> {
          SplittableRandom random = randomFor("hpf-logs", i);
          double normal = gaussian(random);
          long size = Math.round(Math.exp(Math.log(4096) + 1.6 * normal));
          int length = (int) Math.max(1024, Math.min(10L << 20, size));
          StringBuilder text = new StringBuilder(length + 128);
          long time = 1_700_000_000L + i * 37L;
          while (text.length() < length) {
            time += 1 + random.nextInt(20);
            text.append(time)
                .append(' ')
                .append(levels[random.nextInt(levels.length)])
                .append(" [worker-")
                .append(random.nextInt(16))
                .append("] ")
                .append(words[random.nextInt(words.length)])
                .append(' ')
                .append(words[random.nextInt(words.length)])
                .append(" id=")
                .append(random.nextInt(100_000))
                .append('\n');
          }
          text.setLength(length);
          String name = String.format(Locale.ROOT, "host-%03d/app-%07d.log", i % 1000, i);
          return new GeneratedFile(name, text.toString().getBytes(StandardCharsets.UTF_8));
        });
  }

  public static Dataset text(String name, int count, int approximateBytes, List<String> words) {
    return new Generated(
        name,
        count,
        "words of the word list, about " + approximateBytes + " bytes a file",
        i -> {
          SplittableRandom random = randomFor(name, i);
          int length = (int) (approximateBytes * (0.8 + 0.4 * random.nextDouble()));
          StringBuilder text = new StringBuilder(length + 64);
          while (text.length() < length) {
            text.append(words.get(random.nextInt(words.size())))
                .append(random.nextInt(12) == 0 ? '\n' : ' ');
          }
          String file = String.format(Locale.ROOT, "dir-%02d/text-%06d.txt", i % 50, i);
          return new GeneratedFile(file, text.toString().getBytes(StandardCharsets.UTF_8));
        });
  }

  static Dataset random32k(int count) {
    return new Generated(
        "tyr-32k",
        count,
        "32 KiB of random bytes a file (incompressible)",
        i -> {
          byte[] content = new byte[32 * 1024];
          randomFor("tyr-32k", i).nextBytes(content);
          return new GeneratedFile(String.format(Locale.ROOT, "objects/%07d.bin", i), content);
        });
  }

  /** The first {@code max} regular files of the tree in name order. */
  static Dataset kernel(Path root, int max) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(Files::isRegularFile)
          .forEach(p -> names.add(root.relativize(p).toString().replace('\\', '/')));
    }
    names.sort(null);
    List<String> chosen = names.subList(0, Math.min(max, names.size()));
    return new Generated(
        "kernel",
        chosen.size(),
        "the Linux 6.1 source tree (Debian linux-source-6.1)",
        i -> {
          try {
            return new GeneratedFile(
                chosen.get(i), Files.readAllBytes(root.resolve(chosen.get(i))));
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }

  /**
   * Debian's word list if installed (scripts/install-corpora.sh), else a fixed list of generated
   * pseudo-words of the same length distribution, so the suite runs anywhere.
   */
  public static List<String> words() throws IOException {
    if (Files.isRegularFile(WORD_LIST)) {
      List<String> words = new ArrayList<>();
      for (String line : Files.readAllLines(WORD_LIST, StandardCharsets.UTF_8)) {
        if (!line.isEmpty() && line.indexOf('\'') < 0) {
          words.add(line);
        }
      }
      return words;
    }
    List<String> words = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 50_000; i++) {
      int length = 3 + random.nextInt(8);
      StringBuilder w = new StringBuilder();
      for (int c = 0; c < length; c++) {
        w.append((char) ('a' + random.nextInt(26)));
      }
      words.add(w.toString());
    }
    return words;
  }

  /** A standard normal sample (Box-Muller), from the given generator only. */
  private static double gaussian(SplittableRandom random) {
    double u = 1.0 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
