package io.hpf.archive;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.internal.write.SegmentBuilder;
import io.hpf.internal.write.SortedRows;
import io.hpf.store.AppendableFile;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds archives from hand-made entries, with valid checksums everywhere, to hold what no hpf
 * writer would write: names the spec forbids, lengths that claim gigabytes, zstd bombs. Readers
 * must answer them with right bytes or a clear error.
 */
public final class CraftedArchive {
  private final LocalStorage storage;
  private final AppendableFile part;
  private final List<SegmentBuilder.Row> rows = new ArrayList<>();
  private long liveBytes;

  public CraftedArchive(Path dir) throws IOException {
    storage = LocalStorage.createDirectories(dir);
    part = storage.create(FileNames.partFileName(1), FileUse.CONTENT);
    part.write(FileFraming.header(FormatConstants.KIND_PART));
  }

  /**
   * Appends an entry (a header as hpf writes it, the stored bytes, the trailer holding {@code
   * rawCrc}) and indexes it under its name, whatever the header claims.
   */
  public CraftedArchive add(String name, Codec codec, long rawLength, byte[] stored, int rawCrc)
      throws IOException {
    return add(name, codec, rawLength, stored, rawCrc, header -> {});
  }

  /**
   * As {@link #add(String, Codec, long, byte[], int)}, with the header's bytes changed by {@code
   * patch} (its CRC32C made again after): fields no writer sets, with checksums that hold.
   */
  public CraftedArchive add(
      String name,
      Codec codec,
      long rawLength,
      byte[] stored,
      int rawCrc,
      java.util.function.Consumer<byte[]> patch)
      throws IOException {
    return add(name, codec, rawLength, stored, rawCrc, Map.of(), patch);
  }

  /**
   * As {@link #add(String, Codec, long, byte[], int, java.util.function.Consumer)}, with
   * attributes.
   */
  public CraftedArchive add(
      String name,
      Codec codec,
      long rawLength,
      byte[] stored,
      int rawCrc,
      Map<String, String> attributes,
      java.util.function.Consumer<byte[]> patch)
      throws IOException {
    byte[] header =
        EntryCodec.encodeHeader(
                io.hpf.internal.format.EntryNames.utf8(
                    name), // a name read from an archive: its bytes
                codec,
                0,
                rawLength,
                stored.length,
                1_700_000_000_000L,
                0644,
                attributes)
            .toByteArray();
    patch.accept(header);
    int crc = EntryCodec.crc32c(header, 0, header.length - 4);
    System.arraycopy(new ByteWriter(4).u32(crc).toByteArray(), 0, header, header.length - 4, 4);
    long entryLength = header.length + stored.length + 4L;
    EntryInfo row =
        new EntryInfo(
            name,
            false,
            rawLength,
            stored.length,
            codec,
            0,
            1_700_000_000_000L,
            0644,
            Map.of(),
            1,
            part.position(),
            entryLength,
            0,
            0);
    part.write(header);
    part.write(stored);
    part.write(new ByteWriter(4).u32(rawCrc).toByteArray());
    rows.add(SegmentBuilder.Row.of(row));
    liveBytes += entryLength;
    return this;
  }

  /**
   * Appends a group stored raw whose content is {@code raw} (members as the caller encoded them,
   * right or not) with a matching CRC32C, and indexes {@code names} as its members.
   */
  public CraftedArchive addGroup(byte[] raw, String... names) throws IOException {
    return addGroup(Codec.NONE, raw.length, raw, EntryCodec.crc32c(raw, 0, raw.length), names);
  }

  /** As {@link #addGroup(byte[], String...)}, with whatever header and trailer are asked for. */
  public CraftedArchive addGroup(
      Codec codec, long rawLength, byte[] stored, int rawCrc, String... names) throws IOException {
    ByteWriter header = EntryCodec.encodeGroupHeader(codec, 0, rawLength, stored.length);
    long entryLength = header.size() + stored.length + 4L;
    long offset = part.position();
    part.write(header.toByteArray());
    part.write(stored);
    part.write(EntryCodec.trailer(rawCrc));
    for (int i = 0; i < names.length; i++) {
      rows.add(
          SegmentBuilder.Row.of(
              new EntryInfo(
                  names[i],
                  false,
                  1,
                  1,
                  Codec.NONE,
                  0,
                  1_700_000_000_000L,
                  0644,
                  Map.of(),
                  1,
                  offset,
                  entryLength,
                  i,
                  names.length)));
    }
    liveBytes += entryLength;
    return this;
  }

  /** Changes the row of the entry added last: a row that says something else of its entry. */
  public CraftedArchive patchLastRow(java.util.function.UnaryOperator<EntryInfo> change) {
    int last = rows.size() - 1;
    rows.set(last, SegmentBuilder.Row.of(change.apply(rows.get(last).info())));
    return this;
  }

  /** Indexes {@code row} as given, whatever its fields say (no content is written for it). */
  public CraftedArchive addRow(EntryInfo row) {
    rows.add(SegmentBuilder.Row.of(row));
    return this;
  }

  /** Adds an uncompressed entry holding {@code content}. */
  public CraftedArchive addPlain(String name, byte[] content) throws IOException {
    return add(
        name, Codec.NONE, content.length, content, EntryCodec.crc32c(content, 0, content.length));
  }

  /** Writes the segment and commits the manifest; returns the archive's storage. */
  public LocalStorage commit() throws IOException {
    long committed = part.position();
    part.sync();
    part.close();
    SegmentBuilder.sortByName(rows);
    Manifest.SegmentRef segment =
        SegmentBuilder.write(storage, 1, SortedRows.of(rows), 1000, List.of()).segment();
    Generation.Change history =
        new Generation.Change(1, 1_700_000_000_000L, "crafted", rows.size());
    ManifestStore.commit(
        storage,
        new Manifest(
            1,
            1_700_000_000_000L,
            "crafted",
            1000,
            new io.hpf.archive.model.ArchiveSettings(io.hpf.archive.model.Codec.NONE, 0, 0),
            rows.size(),
            liveBytes,
            List.of(),
            List.of(new Generation.Part(1, committed)),
            List.of(segment),
            List.of(history),
            new Manifest.IdMarks(1, 1)));
    return storage;
  }
}
