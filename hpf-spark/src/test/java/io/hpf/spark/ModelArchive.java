package io.hpf.spark;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.Codec;
import io.hpf.archive.EntryMetadata;
import io.hpf.archive.WriterOptions;
import io.hpf.store.Storage;
import io.hpf.testing.ArchiveModel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A random archive and its model: entries added over three commits with three codecs (so three
 * segments), some replaced and some deleted (tombstones), with mtimes and attributes.
 */
public final class ModelArchive {
  /** An entry as the model holds it. */
  public record Entry(byte[] content, long mtimeMillis, Map<String, String> attributes) {}

  public final TreeMap<String, Entry> entries = new TreeMap<>();

  private ModelArchive() {}

  public static ModelArchive write(Storage storage, int count, long seed) throws IOException {
    ModelArchive model = new ModelArchive();
    SplittableRandom random = new SplittableRandom(seed);
    List<String> names = new ArrayList<>(ArchiveModel.random(count, seed).keySet());
    Codec[] codecs = {Codec.ZSTD, Codec.LZ4, Codec.NONE};
    for (int commit = 0; commit < codecs.length; commit++) {
      WriterOptions options =
          WriterOptions.builder()
              .codec(codecs[commit])
              .replace(true)
              .maxPartBytes(64 << 10)
              .build();
      try (ArchiveWriter writer =
          commit == 0
              ? ArchiveWriter.create(storage, options)
              : ArchiveWriter.open(storage, options)) {
        int from = commit * names.size() / codecs.length;
        int to = (commit + 1) * names.size() / codecs.length;
        for (String name : names.subList(from, to)) {
          model.add(writer, name, random);
        }
        if (commit > 0) {
          // Replace some earlier entries and delete others.
          for (int i = 0; i < from; i += 7) {
            model.add(writer, names.get(i), random);
          }
          for (int i = 3; i < from; i += 11) {
            if (i % 7 == 0 || !model.entries.containsKey(names.get(i))) {
              continue; // replaced above, or deleted before
            }
            writer.delete(names.get(i));
            model.entries.remove(names.get(i));
          }
        }
        writer.commit();
      }
    }
    return model;
  }

  private void add(ArchiveWriter writer, String name, SplittableRandom random) throws IOException {
    int size = random.nextInt(8) == 0 ? random.nextInt(0, 40_000) : random.nextInt(0, 3000);
    byte[] content = ArchiveModel.content(random, size);
    long mtime = 1_600_000_000_000L + random.nextLong(0, 200_000_000_000L);
    Map<String, String> attributes =
        random.nextInt(3) == 0 ? Map.of("kind", "k" + random.nextInt(3)) : Map.of();
    writer.add(name, content, new EntryMetadata(mtime, 0644, attributes));
    entries.put(name, new Entry(content, mtime, attributes));
  }
}
