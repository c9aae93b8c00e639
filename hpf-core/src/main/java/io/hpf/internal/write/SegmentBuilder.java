package io.hpf.internal.write;

import io.hpf.archive.model.EntryInfo;
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

  /** Gives a row's index record to the index being gathered. */
  static void addToIndex(IndexInputs index, Row row) throws IOException {
    EntryInfo info = row.info;
    long hash = NameHash.of(row.nameUtf8);
    index.add(
        row.nameUtf8,
        info.deleted()
            ? new IndexRecord(hash, FormatConstants.TOMBSTONE_PART_ID, 0, 0)
            : new IndexRecord(hash, info.partId(), info.offset(), info.entryLength()));
  }

  /** A written segment and where in its file the dictionaries given to it are. */
  public record Written(Manifest.SegmentRef segment, List<Manifest.DictionaryRef> dictionaries) {}

  /**
   * Writes the segment's file (FORMAT.md "Segment file": catalog, buckets, then {@code
   * dictionaries}) and returns its manifest entry. The catalog is written as the rows come; the
   * index is built from a second read of them on a thread of its own ({@link IndexAhead}), or, for
   * segments too small or too large for that, from index records gathered by region of the hash
   * space as the catalog is written ({@link IndexInputs}). REQUIRES: rows sorted by name bytes,
   * each name once.
   */
  public static Written write(
      Storage storage,
      int segmentId,
      SortedRows rows,
      int bucketCapacity,
      List<Dictionary> dictionaries)
      throws IOException {
    boolean ahead = rows.size() >= IndexAhead.MIN_ROWS && rows.size() <= IndexAhead.MAX_ROWS;
    return write(storage, segmentId, rows, bucketCapacity, dictionaries, ahead);
  }

  /** As above; the index built on a thread of its own if {@code ahead}. */
  static Written write(
      Storage storage,
      int segmentId,
      SortedRows rows,
      int bucketCapacity,
      List<Dictionary> dictionaries,
      boolean ahead)
      throws IOException {
    IndexAhead building = ahead ? IndexAhead.start(rows, bucketCapacity) : null;
    try {
      return write(storage, segmentId, rows, bucketCapacity, dictionaries, building);
    } catch (IOException | RuntimeException e) {
      if (building != null) {
        building.abandon(); // its thread must be done with the rows before they are closed
      }
      throw e;
    }
  }

  /** As above, the index built by {@code building}, or here after the catalog if it is null. */
  private static Written write(
      Storage storage,
      int segmentId,
      SortedRows rows,
      int bucketCapacity,
      List<Dictionary> dictionaries,
      IndexAhead building)
      throws IOException {
    long catalogLength;
    long tombstones = 0;
    try (SegmentFileWriter out =
            new SegmentFileWriter(
                storage.create(FileNames.segmentFileName(segmentId), FileUse.INDEX));
        IndexInputs index = building != null ? null : IndexInputs.forCount(rows.size())) {
      try (AppendableFile section = out.section();
          SortedRows.Cursor cursor = rows.open()) {
        CatalogWriter catalog = new CatalogWriter(section);
        for (Row row = cursor.next(); row != null; row = cursor.next()) {
          catalog.add(row.nameUtf8, row.info);
          tombstones += row.info.deleted() ? 1 : 0;
          if (index != null) {
            addToIndex(index, row);
          }
        }
        catalogLength = catalog.finish();
      }
      SegmentDirectory directory =
          building != null
              ? building.appendTo(out)
              : SegmentIndexWriter.write(out, index, bucketCapacity);
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
