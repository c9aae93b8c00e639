package io.hpf.bench.paper;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.pack.Packer;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * hpf packed as {@code hpf create} packs (one packing thread per core): with its defaults (zstd
 * with a trained dictionary where reads are remote, LZ4 on local disk), with {@code --codec lz4} or
 * for size ({@code --solid}).
 */
final class HpfSystem implements BenchSystem {
  /** How the archive is packed: the name's suffix and the writer options. */
  enum Packing {
    DEFAULT(""),
    LZ4("-lz4"),
    SOLID("-solid");

    final String suffix;

    Packing(String suffix) {
      this.suffix = suffix;
    }

    WriterOptions options() {
      switch (this) {
        case LZ4:
          return WriterOptions.builder().codec(io.hpf.archive.model.Codec.LZ4).build();
        case SOLID:
          return WriterOptions.builder().solid().build();
        default:
          return WriterOptions.builder().build();
      }
    }
  }

  private final boolean cacheIndexPages;
  private final Packing packing;

  /**
   * @param cacheIndexPages keep index pages in memory (the default reader); without, every lookup
   *     reads its record from storage (HDFS: a DataNode; local disk: a read system call instead of
   *     a mapping), the HPF paper's "without caching" setting
   * @param packing how the archive is packed
   */
  HpfSystem(boolean cacheIndexPages, Packing packing) {
    this.cacheIndexPages = cacheIndexPages;
    this.packing = packing;
  }

  @Override
  public String name() {
    return (cacheIndexPages ? "hpf" : "hpf-nocache") + packing.suffix;
  }

  @Override
  public void create(BenchTarget target, Path staged, List<String> names) throws Exception {
    try (Storage storage = target.storage(true)) {
      Packer.pack(
          staged,
          storage,
          packing.options(),
          new Packer.Options(Runtime.getRuntime().availableProcessors(), false, false, true),
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
