package io.hpf.testing;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The model-archive fixture every module's tests share: a random archive written over one commit a
 * codec (so as many segments), later commits replacing some earlier entries and deleting others
 * (tombstones), entries with mtimes and attributes, small parts (64 KiB, so several), and
 * optionally one large entry (streamed, not read whole) — with the model of what it holds at the
 * end to compare every way of reading it with.
 */
public final class ModelArchive {
  /** An entry as the model holds it. */
  public record Entry(byte[] content, long mtimeMillis, Map<String, String> attributes) {}

  /** The name of the large entry, when there is one. */
  public static final String LARGE_NAME = "large/one.bin";

  /** Bytes of the large entry of {@link #write(Path, Codec, int, long)}: over the 1 MiB chunk. */
  public static final int LARGE_BYTES = 3 << 20;

  /** The live entries by name, in byte order of their UTF-8 names. */
  public final TreeMap<String, Entry> entries = new TreeMap<>(ArchiveModel::compareUtf8);

  private final List<String> deleted = new ArrayList<>();
  private final TreeMap<String, byte[]> live = new TreeMap<>(ArchiveModel::compareUtf8);

  private ModelArchive() {}

  /** Three commits with zstd, lz4 and none, no large entry. */
  public static ModelArchive write(Storage storage, int count, long seed) throws IOException {
    return write(storage, count, seed, new Codec[] {Codec.ZSTD, Codec.LZ4, Codec.NONE}, 0);
  }

  /** Three commits with {@code codec} into a new local archive at {@code dir}, a large entry. */
  public static ModelArchive write(Path dir, Codec codec, int count, long seed) throws IOException {
    return write(
        LocalStorage.createDirectories(dir),
        count,
        seed,
        new Codec[] {codec, codec, codec},
        LARGE_BYTES);
  }

  /**
   * Writes the archive: commit {@code i} adds its share of {@code count} random names with {@code
   * codecs[i]}; every commit after the first also replaces every seventh earlier name and deletes
   * some others. The large entry, when {@code largeBytes > 0}, comes in the first commit.
   */
  public static ModelArchive write(
      Storage storage, int count, long seed, Codec[] codecs, int largeBytes) throws IOException {
    ModelArchive model = new ModelArchive();
    SplittableRandom random = new SplittableRandom(seed);
    List<String> names = new ArrayList<>(ArchiveModel.random(count, seed).keySet());
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
        if (commit == 0 && largeBytes > 0) {
          model.add(writer, LARGE_NAME, ArchiveModel.content(random, largeBytes), random);
        }
        if (commit > 0) {
          model.replaceAndDelete(writer, names.subList(0, from), random);
        }
        writer.commit();
      }
    }
    model.entries.forEach((name, e) -> model.live.put(name, e.content()));
    return model;
  }

  /** Replaces every seventh of {@code earlier} and deletes every eleventh of the others. */
  private void replaceAndDelete(ArchiveWriter writer, List<String> earlier, SplittableRandom random)
      throws IOException {
    for (int i = 0; i < earlier.size(); i += 7) {
      add(writer, earlier.get(i), random);
    }
    for (int i = 3; i < earlier.size(); i += 11) {
      String name = earlier.get(i);
      if (i % 7 == 0 || !entries.containsKey(name)) {
        continue; // replaced above, or deleted before
      }
      writer.delete(name);
      entries.remove(name);
      deleted.add(name);
    }
  }

  private void add(ArchiveWriter writer, String name, SplittableRandom random) throws IOException {
    int size = random.nextInt(8) == 0 ? random.nextInt(0, 40_000) : random.nextInt(0, 3000);
    add(writer, name, ArchiveModel.content(random, size), random);
  }

  private void add(ArchiveWriter writer, String name, byte[] content, SplittableRandom random)
      throws IOException {
    long mtime = 1_600_000_000_000L + random.nextLong(0, 200_000_000_000L);
    Map<String, String> attributes =
        random.nextInt(3) == 0 ? Map.of("kind", "k" + random.nextInt(3)) : Map.of();
    writer.add(name, content, new EntryMetadata(mtime, 0644, attributes));
    entries.put(name, new Entry(content, mtime, attributes));
  }

  /**
   * The live entries' contents by name, in byte order of their UTF-8 names; made once, when the
   * archive is written. Read-only by convention, as {@link #entries}.
   */
  public TreeMap<String, byte[]> live() {
    return live;
  }

  /** Names the archive held once and deleted (none of them live). */
  public List<String> deleted() {
    return Collections.unmodifiableList(deleted);
  }
}
