package io.hpf.internal.write;

import io.hpf.archive.EntryInfo;
import io.hpf.internal.catalog.CatalogWriter;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.NameHash;
import io.hpf.internal.format.SegmentFileWriter;
import io.hpf.internal.index.IndexInputs;
import io.hpf.internal.index.IndexRecord;
import io.hpf.internal.index.SegmentDirectory;
import io.hpf.internal.index.SegmentIndexWriter;
import io.hpf.internal.manifest.Manifest;
import io.hpf.store.AppendableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Writes one segment file (catalog, buckets and any dictionaries) from its rows. Used by commits
 * and compaction.
 */
public final class SegmentBuilder {
  private SegmentBuilder() {}

  /** Rows with their UTF-8 names, for sorting by bytes. */
  public record Row(byte[] nameUtf8, EntryInfo info) {
    public static Row of(EntryInfo info) {
      return new Row(EntryNames.utf8(info.name()), info);
    }
  }

  /** Rows in name order: their UTF-8 bytes compared unsigned. */
  public static final Comparator<Row> BY_NAME =
      Comparator.comparing(Row::nameUtf8, Arrays::compareUnsigned);

  public static void sortByName(List<Row> rows) {
    rows.sort(BY_NAME);
  }

  /** A written segment and where in its file the dictionaries given to it are. */
  public record Written(Manifest.SegmentRef segment, List<Manifest.DictionaryRef> dictionaries) {}

  /**
   * Writes the segment's file (FORMAT.md "Segment file": catalog, buckets, then {@code
   * dictionaries}) and returns its manifest entry. The rows are read once: the catalog is written
   * as they come, their index records gathered by region of the hash space ({@link IndexInputs}).
   * REQUIRES: rows sorted by name bytes, each name once.
   */
  public static Written write(
      Storage storage,
      int segmentId,
      SortedRows rows,
      int bucketCapacity,
      List<Dictionary> dictionaries)
      throws IOException {
    long catalogLength;
    long tombstones = 0;
    try (SegmentFileWriter out =
            new SegmentFileWriter(
                storage.create(FileNames.segmentFileName(segmentId), FileUse.INDEX));
        IndexInputs index = IndexInputs.forCount(rows.size())) {
      try (AppendableFile section = out.section();
          SortedRows.Cursor cursor = rows.open()) {
        CatalogWriter catalog = new CatalogWriter(section);
        for (Row row = cursor.next(); row != null; row = cursor.next()) {
          EntryInfo info = row.info;
          catalog.add(row.nameUtf8, info);
          tombstones += info.deleted() ? 1 : 0;
          long hash = NameHash.of(row.nameUtf8);
          index.add(
              row.nameUtf8,
              info.deleted()
                  ? new IndexRecord(hash, FormatConstants.TOMBSTONE_PART_ID, 0, 0)
                  : new IndexRecord(hash, info.partId(), info.offset(), info.entryLength()));
        }
        catalogLength = catalog.finish();
      }
      SegmentDirectory directory = SegmentIndexWriter.write(out, index, bucketCapacity);
      List<Manifest.DictionaryRef> placed = new ArrayList<>();
      for (Dictionary d : dictionaries) {
        byte[] bytes = d.encodeFile();
        placed.add(new Manifest.DictionaryRef(d.id(), bytes.length, segmentId, out.position()));
        out.write(bytes, 0, bytes.length);
      }
      long fileLength = out.finish();
      return new Written(
          new Manifest.SegmentRef(
              segmentId,
              rows.size() - tombstones,
              tombstones,
              catalogLength,
              directory,
              fileLength),
          placed);
    }
  }
}
