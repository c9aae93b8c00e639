package io.hpf.server.testing;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.Codec;
import io.hpf.archive.EntryMetadata;
import io.hpf.archive.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Archives made in several commits (three segments, tombstones, replaced names, a large entry) with
 * the model of what they hold at the end.
 */
public final class ModelArchives {
  private ModelArchives() {}

  /** The result: the archive's live entries, and names it held once and deleted. */
  public record Made(TreeMap<String, byte[]> live, List<String> deleted) {}

  /** Bytes of the large entry each archive has: streamed, not read whole. */
  public static final int LARGE_BYTES = 3 << 20;

  public static Made write(Path dir, Codec codec, int count, long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    TreeMap<String, byte[]> all = ArchiveModel.random(count, seed);
    TreeMap<String, byte[]> first = new TreeMap<>(ArchiveModel::compareUtf8);
    TreeMap<String, byte[]> second = new TreeMap<>(ArchiveModel::compareUtf8);
    int i = 0;
    for (Map.Entry<String, byte[]> e : all.entrySet()) {
      (i++ % 2 == 0 ? first : second).put(e.getKey(), e.getValue());
    }
    byte[] large = ArchiveModel.content(random, LARGE_BYTES);
    first.put("large/one.bin", large);
    WriterOptions options = WriterOptions.builder().codec(codec).build();
    LocalStorage storage = TestArchives.write(dir, first, options, 2);
    TreeMap<String, byte[]> live = new TreeMap<>(first);
    try (ArchiveWriter w = ArchiveWriter.open(storage, options)) {
      for (Map.Entry<String, byte[]> e : second.entrySet()) {
        w.add(e.getKey(), e.getValue(), EntryMetadata.of(1_700_000_000_000L));
        live.put(e.getKey(), e.getValue());
      }
      w.commit();
    }
    List<String> deleted = new ArrayList<>();
    WriterOptions replacing = WriterOptions.builder().codec(codec).replace(true).build();
    try (ArchiveWriter w = ArchiveWriter.open(storage, replacing)) {
      List<String> names = new ArrayList<>(live.keySet());
      for (int k = 0; k < names.size(); k += 7) {
        String name = names.get(k);
        if (name.equals("large/one.bin")) {
          continue;
        }
        if (k % 2 == 0) {
          w.delete(name);
          live.remove(name);
          deleted.add(name);
        } else {
          byte[] replaced = ArchiveModel.content(random, random.nextInt(3000));
          w.add(name, replaced, EntryMetadata.of(1_800_000_000_000L));
          live.put(name, replaced);
        }
      }
      w.commit();
    }
    return new Made(live, deleted);
  }
}
