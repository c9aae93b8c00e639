package io.hpf.crash;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.nio.file.Path;
import java.util.Map;

/**
 * The writer process a crash test kills: runs a {@link CrashScenario}, printing "STEP k" once step
 * k is committed. Arguments: archive directory, seed, step count.
 */
public final class CrashWriterMain {
  private CrashWriterMain() {}

  public static WriterOptions options(boolean replace) {
    // Small buckets, parts and segment limits, so that every mechanism runs often.
    return WriterOptions.builder()
        .codec(Codec.LZ4)
        .bucketCapacity(64)
        .maxPartBytes(32 * 1024)
        .blockAlignment(4096) // padding between entries, which recovery must step over
        .maxSegments(4)
        .gracePeriodMillis(0)
        .replace(replace)
        .build();
  }

  public static void main(String[] args) throws Exception {
    run(LocalStorage.open(Path.of(args[0])), Long.parseLong(args[1]), Integer.parseInt(args[2]));
  }

  /** Runs the scenario of {@code seed} against {@code storage}, printing "STEP n" after each. */
  public static void run(io.hpf.store.Storage storage, long seed, int steps) throws Exception {
    CrashScenario scenario = new CrashScenario(seed, steps);
    for (CrashScenario.Step step : scenario.steps()) {
      boolean replace = step.kind() == CrashScenario.Kind.REPLACE;
      try (ArchiveWriter writer = ArchiveWriter.open(storage, options(replace))) {
        switch (step.kind()) {
          case COMPACT -> writer.compact(false);
          case RECLAIM -> writer.compact(true);
          default -> {
            for (Map.Entry<String, byte[]> add : step.adds().entrySet()) {
              writer.add(add.getKey(), add.getValue(), EntryMetadata.of(step.number()));
            }
            for (String name : step.deletes()) {
              writer.delete(name);
            }
            writer.commit();
          }
        }
      }
      System.out.println("STEP " + step.number());
      System.out.flush();
    }
  }
}
