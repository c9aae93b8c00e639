package io.hpf.spark.pack;

import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.Storage;

/**
 * How {@link SparkPack} packs: {@code hpf create}'s options, plus the size of a task. Immutable.
 *
 * @param packing the codec, zstd level and solid packing asked for ({@code --codec}, {@code
 *     --level}, {@code --solid}); a new archive's defaults for what it leaves out
 * @param trainDictionary with zstd, train a dictionary once on a sample and ship it to the tasks
 * @param threads reading threads in each task
 * @param taskBytes most source bytes one task packs (a larger file is a task alone); a small tree
 *     is cut smaller, into at least two tasks per task slot
 * @param taskFiles most files one task packs (likewise)
 */
public record SparkPackOptions(
    PackingRequest packing, boolean trainDictionary, int threads, long taskBytes, int taskFiles) {
  public static final long DEFAULT_TASK_BYTES = 256L << 20;
  public static final int DEFAULT_TASK_FILES = 100_000;

  public SparkPackOptions {
    if (threads < 1) {
      throw new IllegalArgumentException("--threads must be at least 1");
    }
    if (taskBytes < 1 || taskFiles < 1) {
      throw new IllegalArgumentException("a task must take at least one file and byte");
    }
  }

  public static SparkPackOptions defaults() {
    return new SparkPackOptions(
        PackingRequest.ARCHIVES, true, 2, DEFAULT_TASK_BYTES, DEFAULT_TASK_FILES);
  }

  /**
   * The codec entries are packed with: the one asked for, else a new archive's on {@code
   * destination}.
   */
  public Codec codec(Storage destination) {
    return packing
        .applyTo(WriterOptions.builder())
        .build()
        .resolveForNew(destination)
        .settings()
        .codec();
  }
}
