package io.hpf.spark.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The benchmark's files of about 4 KB: a subset of the Linux kernel's sources ({@code kernel}, the
 * first N files of at most 16 KB in path order, none hidden) or generated service logs ({@code
 * logs}: 16 services, a directory a day, lines of a request log, 1 to 8 KB a file).
 */
final class Corpus {
  /** A file of the corpus: its name (relative path) and bytes. */
  record File(String name, byte[] bytes) {}

  private final String description;
  private final List<String> names;
  private final Path kernelRoot;

  private Corpus(String description, List<String> names, Path kernelRoot) {
    this.description = description;
    this.names = names;
    this.kernelRoot = kernelRoot;
  }

  static Corpus kernel(Path root, int count) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
        if (names.size() == count) {
          break;
        }
        String name = root.relativize(p).toString();
        // Spark's file sources skip names starting with '.' or '_' (the kernel has .gitignore
        // files): leaving them out keeps every reader's answer the same.
        if (Files.size(p) <= 16 << 10
            && !name.startsWith(".")
            && !name.startsWith("_")
            && !name.contains("/.")
            && !name.contains("/_")) {
          names.add(name);
        }
      }
    }
    if (names.size() < count) {
      throw new IllegalArgumentException(root + " has only " + names.size() + " files of 16 KB");
    }
    return new Corpus("kernel", names, root);
  }

  static Corpus logs(int count) {
    List<String> names = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      names.add(
          String.format(
              Locale.ROOT,
              "svc%02d/2024-%02d-%02d/log-%07d.log",
              i % 16,
              1 + i / 16 % 12,
              1 + i % 28,
              i));
    }
    return new Corpus("logs", names, null);
  }

  String description() {
    return description;
  }

  List<String> names() {
    return names;
  }

  File file(int index) throws IOException {
    String name = names.get(index);
    if (kernelRoot != null) {
      return new File(name, Files.readAllBytes(kernelRoot.resolve(name)));
    }
    SplittableRandom random = new SplittableRandom(index);
    int size = 1024 + random.nextInt(7 * 1024);
    StringBuilder text = new StringBuilder(size + 200);
    String[] levels = {"INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"};
    String[] paths = {"/api/v1/items", "/api/v1/users", "/login", "/health", "/api/v2/search"};
    while (text.length() < size) {
      text.append(
          String.format(
              Locale.ROOT,
              "2024-01-%02dT%02d:%02d:%02d.%03dZ svc%02d host-%d %s GET %s?id=%d %d %dms%n",
              1 + random.nextInt(28),
              random.nextInt(24),
              random.nextInt(60),
              random.nextInt(60),
              random.nextInt(1000),
              index % 16,
              random.nextInt(40),
              levels[random.nextInt(levels.length)],
              paths[random.nextInt(paths.length)],
              random.nextInt(1_000_000),
              random.nextInt(10) == 0 ? 500 : 200,
              random.nextInt(900)));
    }
    return new File(name, text.toString().getBytes(StandardCharsets.UTF_8));
  }
}
