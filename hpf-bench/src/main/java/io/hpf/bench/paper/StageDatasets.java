package io.hpf.bench.paper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Writes datasets of the paper suite as plain files, so that other tools (the hpf CLI, tar, zstd)
 * can pack exactly what the suite packs: {@code StageDatasets OUT_DIR SCALE KERNEL_DIR NAME...}
 * writes each named dataset of that scale under {@code OUT_DIR/NAME}.
 */
public final class StageDatasets {
  private StageDatasets() {}

  public static void main(String[] args) throws Exception {
    io.hpf.bench.BenchArgs flags =
        io.hpf.bench.BenchArgs.parse("StageDatasets", args, "out", "scale", "kernel", "dataset");
    Path out = flags.path("out");
    Scale scale = Scale.valueOf(flags.string("scale").toUpperCase(Locale.ROOT));
    List<String> wanted = flags.all("dataset");
    for (Dataset dataset : Datasets.forScale(scale, flags.path("kernel"))) {
      if (!wanted.contains(dataset.name())) {
        continue;
      }
      long bytes = 0;
      int files = 0;
      for (Iterator<GeneratedFile> it = dataset.files(); it.hasNext(); ) {
        GeneratedFile f = it.next();
        Path target = out.resolve(dataset.name()).resolve(f.name());
        Files.createDirectories(target.getParent());
        Files.write(target, f.content());
        bytes += f.content().length;
        files++;
      }
      System.out.println(dataset.name() + ": " + files + " files, " + bytes + " bytes");
    }
  }
}
