package io.hpf.bench.paper;

import java.util.Locale;

/**
 * How big a run of the paper suite is: files per dataset, repetitions and gets. {@code smoke}
 * checks the harness in seconds, {@code ci} in minutes (the test suite runs it), {@code bench} is
 * what docs/BENCHMARKS.md reports (about 15 minutes on local disk and 30 on a one-machine HDFS,
 * where every plain file is a NameNode round trip), {@code paper} the papers' own sizes (hours).
 */
public enum Scale {
  SMOKE(200, 60, 4, 60, 300, 1, 50, 20_000),
  CI(2_000, 300, 10, 300, 2_000, 2, 300, 100_000),
  BENCH(20_000, 2_000, 50, 2_000, 10_000, 2, 1_000, 1_000_000),
  PAPER(400_000, 100_000, 1_000, 100_000, 78_579, 3, 10_000, 10_000_000);

  final int logFiles;
  final int text30kFiles;
  final int text1mFiles;
  final int tyrFiles;
  final int kernelFiles;
  final int repetitions;
  final int gets;
  final int catalogRows;

  Scale(
      int logFiles,
      int text30kFiles,
      int text1mFiles,
      int tyrFiles,
      int kernelFiles,
      int repetitions,
      int gets,
      int catalogRows) {
    this.logFiles = logFiles;
    this.text30kFiles = text30kFiles;
    this.text1mFiles = text1mFiles;
    this.tyrFiles = tyrFiles;
    this.kernelFiles = kernelFiles;
    this.repetitions = repetitions;
    this.gets = gets;
    this.catalogRows = catalogRows;
  }

  /** "smoke", "ci", "bench" or "paper". */
  public static Scale parse(String text) {
    for (Scale s : values()) {
      if (s.label().equals(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "unknown scale '" + text + "': expected smoke, ci, bench or paper");
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
