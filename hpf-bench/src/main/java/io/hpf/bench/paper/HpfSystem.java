package io.hpf.bench.paper;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.EntryNotFoundException;
import io.hpf.archive.PackOptions;
import io.hpf.archive.Packer;
import io.hpf.archive.ProgressListener;
import io.hpf.archive.WriterOptions;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** hpf with its defaults: zstd with a trained dictionary, one packing thread per core. */
final class HpfSystem implements BenchSystem {
  @Override
  public String name() {
    return "hpf";
  }

  @Override
  public void create(BenchTarget target, Path staged, List<String> names) throws Exception {
    try (Storage storage = target.storage(true)) {
      Packer.pack(
          staged,
          storage,
          WriterOptions.builder().build(),
          new PackOptions(Runtime.getRuntime().availableProcessors(), false, false, true),
          ProgressListener.NONE);
    }
  }

  @Override
  public Reader open(BenchTarget target) throws IOException {
    ArchiveReader reader = ArchiveReader.open(target.storage(false));
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
