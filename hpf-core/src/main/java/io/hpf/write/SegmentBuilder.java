package io.hpf.write;

import io.hpf.catalog.CatalogWriter;
import io.hpf.format.EntryInfo;
import io.hpf.format.FileNames;
import io.hpf.format.FormatConstants;
import io.hpf.format.NameHash;
import io.hpf.index.IndexInput;
import io.hpf.index.IndexRecord;
import io.hpf.index.SegmentDirectory;
import io.hpf.index.SegmentIndexWriter;
import io.hpf.manifest.Manifest;
import io.hpf.store.AppendableFile;
import io.hpf.store.FileUse;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** Writes one segment (catalog and bucket files) from its rows. Used by commits and compaction. */
public final class SegmentBuilder {
  private SegmentBuilder() {}

  /** Rows with their UTF-8 names, for sorting by bytes. */
  public record Row(byte[] nameUtf8, EntryInfo info) {
    public static Row of(EntryInfo info) {
      return new Row(info.name().getBytes(StandardCharsets.UTF_8), info);
    }
  }

  public static void sortByName(List<Row> rows) {
    rows.sort(Comparator.comparing(Row::nameUtf8, Arrays::compareUnsigned));
  }

  /**
   * Writes the segment's files and returns its manifest entry. REQUIRES: rows sorted by name bytes,
   * each name once.
   */
  public static Manifest.SegmentRef write(
      Storage storage, int segmentId, List<Row> rows, int bucketCapacity) throws IOException {
    long catalogLength;
    long tombstones = 0;
    try (AppendableFile file =
        storage.create(FileNames.catalogFileName(segmentId), FileUse.INDEX)) {
      CatalogWriter catalog = new CatalogWriter(file);
      for (Row row : rows) {
        catalog.add(row.info);
        tombstones += row.info.deleted() ? 1 : 0;
      }
      catalogLength = catalog.finish();
    }
    List<IndexInput> inputs = new ArrayList<>(rows.size());
    for (Row row : rows) {
      EntryInfo info = row.info;
      IndexRecord record =
          info.deleted()
              ? new IndexRecord(NameHash.of(row.nameUtf8), FormatConstants.TOMBSTONE_PART_ID, 0, 0)
              : new IndexRecord(
                  NameHash.of(row.nameUtf8), info.partId(), info.offset(), info.entryLength());
      inputs.add(new IndexInput(row.nameUtf8, record));
    }
    SegmentDirectory directory =
        SegmentIndexWriter.write(storage, segmentId, inputs, bucketCapacity);
    return new Manifest.SegmentRef(
        segmentId, rows.size() - tombstones, tombstones, catalogLength, directory);
  }
}
