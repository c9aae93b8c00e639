package io.hpf.testing;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Writes model maps as archives, from several threads like the packer does. */
public final class TestArchives {
  private TestArchives() {}

  public static LocalStorage write(
      Path dir, SortedMap<String, byte[]> model, WriterOptions options, int threads)
      throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(dir);
    write(storage, model, options, threads);
    return storage;
  }

  /**
   * A zstd dictionary of at most {@code maxBytes} trained on the model's entries over 64 bytes, as
   * the packer trains one on the files it packs.
   */
  public static byte[] dictionary(Map<String, byte[]> model, int maxBytes) {
    byte[][] samples = model.values().stream().filter(v -> v.length > 64).toArray(byte[][]::new);
    byte[] trained = new byte[maxBytes];
    long size = com.github.luben.zstd.Zstd.trainFromBuffer(samples, trained);
    if (com.github.luben.zstd.Zstd.isError(size) || size <= 0) {
      throw new IllegalStateException("zstd made no dictionary of the model: " + size);
    }
    return java.util.Arrays.copyOf(trained, (int) size);
  }

  /** Writes {@code model} into the empty archive directory {@code storage} and returns it. */
  public static <S extends Storage> S write(
      S storage, SortedMap<String, byte[]> model, WriterOptions options, int threads)
      throws Exception {
    List<Map.Entry<String, byte[]>> entries = new ArrayList<>(model.entrySet());
    try (ArchiveWriter writer = ArchiveWriter.create(storage, options)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int first = t;
          futures.add(
              pool.submit(
                  () -> {
                    for (int i = first; i < entries.size(); i += threads) {
                      Map.Entry<String, byte[]> e = entries.get(i);
                      writer.add(
                          e.getKey(), e.getValue(), EntryMetadata.of(1_700_000_000_000L + i));
                    }
                    return null;
                  }));
        }
        for (Future<?> f : futures) {
          f.get();
        }
      } finally {
        pool.shutdown();
      }
      writer.commit();
    }
    return storage;
  }
}
