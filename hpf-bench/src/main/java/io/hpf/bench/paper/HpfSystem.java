package io.hpf.bench.paper;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.EntryNotFoundException;
import io.hpf.archive.ProgressListener;
import io.hpf.archive.WriterOptions;
import io.hpf.pack.PackOptions;
import io.hpf.pack.Packer;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * hpf with its defaults (zstd with a trained dictionary, one packing thread per core), or packed
 * for size as {@code hpf create --solid} packs.
 */
final class HpfSystem implements BenchSystem {
  private final boolean cacheIndexPages;
  private final boolean solid;

  /**
   * @param cacheIndexPages keep index pages in memory (the default reader); without, every lookup
   *     reads its record from storage (HDFS: a DataNode; local disk: a read system call instead of
   *     a mapping), the HPF paper's "without caching" setting
   * @param solid pack for size ({@link WriterOptions.Builder#solid()})
   */
  HpfSystem(boolean cacheIndexPages, boolean solid) {
    this.cacheIndexPages = cacheIndexPages;
    this.solid = solid;
  }

  @Override
  public String name() {
    return (cacheIndexPages ? "hpf" : "hpf-nocache") + (solid ? "-solid" : "");
  }

  @Override
  public void create(BenchTarget target, Path staged, List<String> names) throws Exception {
    try (Storage storage = target.storage(true)) {
      Packer.pack(
          staged,
          storage,
          solid ? WriterOptions.builder().solid().build() : WriterOptions.builder().build(),
          new PackOptions(Runtime.getRuntime().availableProcessors(), false, false, true),
          ProgressListener.NONE);
    }
  }

  @Override
  public Reader open(BenchTarget target) throws IOException {
    Storage storage = target.storage(false);
    if (!cacheIndexPages) {
      storage =
          storage instanceof io.hpf.store.LocalStorage local
              ? local.withPositionalReads()
              : ((io.hpf.hadoop.HadoopStorage) storage).withoutIndexPageCache();
    }
    ArchiveReader reader = ArchiveReader.open(storage);
    return new Reader() {
      @Override
      public byte[] get(String name) throws IOException {
        try {
          return reader.get(name);
        } catch (EntryNotFoundException e) {
          return null;
        }
      }

      @Override
      public long scan() throws IOException {
        long[] bytes = {0};
        reader.scan((info, content) -> bytes[0] += content.readAllBytes().length);
        return bytes[0];
      }

      @Override
      public void close() throws IOException {
        reader.close();
      }
    };
  }
}
