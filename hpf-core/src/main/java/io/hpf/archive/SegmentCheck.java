package io.hpf.archive;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.catalog.CatalogReader;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.NameHash;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.index.IndexBucket;
import io.hpf.internal.index.IndexRecord;
import io.hpf.internal.index.SegmentDirectory;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.Section;
import io.hpf.internal.read.SegmentReader;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link ArchiveVerifier} checks of an archive's index: each whole file but the parts (its
 * header and footer, and each section's of a segment file), and each segment's catalog row by row
 * against its index. Reports to the verifier's {@link VerifyFindings}.
 */
final class SegmentCheck {
  private final Storage storage;
  private final VerifyFindings findings;

  SegmentCheck(Storage storage, VerifyFindings findings) {
    this.storage = storage;
    this.findings = findings;
  }

  /** A section of a segment file and the kind of file it is. */
  record KindedSection(Section section, String kind) {}

  /** The sections the manifest places in a segment file; none for any other file. */
  static List<KindedSection> sectionsOf(Manifest m, String fileName) {
    List<KindedSection> sections = new ArrayList<>();
    for (Manifest.SegmentRef s : m.segments()) {
      if (s.inSegmentFile() && FileNames.segmentFileName(s.segmentId()).equals(fileName)) {
        sections.add(new KindedSection(Section.catalog(s), FormatConstants.KIND_CATALOG));
        for (BucketDescriptor b : s.directory().buckets()) {
          sections.add(new KindedSection(Section.bucket(s, b), FormatConstants.KIND_BUCKET));
        }
      }
    }
    for (Manifest.DictionaryRef d : m.dictionaries()) {
      Section section = Section.dictionary(d);
      if (d.inSegmentFile() && section.fileName().equals(fileName)) {
        sections.add(new KindedSection(section, FormatConstants.KIND_DICTIONARY));
      }
    }
    return sections;
  }

  /**
   * Reads a whole file (not a part) and checks its header and footer CRC, and those of each section
   * of a segment file.
   */
  void checkWholeFile(String name, long length, List<KindedSection> sections) throws IOException {
    String kind =
        switch (FileNames.kindOf(name)) {
          case SEGMENT -> FormatConstants.KIND_SEGMENT;
          case BUCKET -> FormatConstants.KIND_BUCKET;
          case CATALOG -> FormatConstants.KIND_CATALOG;
          default -> FormatConstants.KIND_DICTIONARY;
        };
    try (ReadableFile file = storage.openRead(name, FileUse.ONCE)) {
      checkFraming(file, storage.describe(name), 0, length, kind);
      findings.checkedBytes(length);
      for (KindedSection s : sections) {
        // The manifest's decoder has placed each section inside the file.
        try {
          checkFraming(
              file,
              s.section().describe(storage),
              s.section().offset(),
              s.section().length(),
              s.kind());
        } catch (CorruptArchiveException e) {
          findings.problem(e);
        }
      }
    } catch (CorruptArchiveException e) {
      findings.problem(e);
    }
  }

  /** The header and footer of the file, or section, of {@code length} bytes at {@code offset}. */
  static void checkFraming(ReadableFile file, String where, long offset, long length, String kind)
      throws IOException {
    int head = (int) Math.min(length, FormatConstants.FILE_HEADER_BYTES);
    FileFraming.checkHeader(
        where, file.readFully(offset, head), 0, (int) Math.min(length, Integer.MAX_VALUE), kind);
    FileFraming.checkFooter(where, file, offset, length);
  }

  /**
   * Checks a segment's catalog row by row as its blocks are read (order, names, counts), each row
   * against the index, and gives every row that places an entry to {@code placed}, live unless a
   * newer segment has its name. Returns the rows live in the archive. Holds no row past its check.
   */
  long checkSegment(
      SegmentReader segment,
      List<SegmentReader> newer,
      PlacedRows placed,
      DirectoryNames directories)
      throws IOException {
    Section name = Section.catalog(segment.ref());
    CatalogReader catalog;
    try {
      catalog = segment.catalog();
    } catch (CorruptArchiveException e) {
      findings.problem(e);
      return 0;
    }
    List<IndexBucket> buckets = readBuckets(segment);
    byte[] previous = null;
    long rows = 0;
    long live = 0;
    long reachable = 0; // live rows no newer segment shadows
    for (int b = 0; b < catalog.blockCount(); b++) {
      List<EntryInfo> block;
      try {
        block = catalog.readBlock(b);
      } catch (CorruptArchiveException e) {
        findings.problem(e);
        continue;
      }
      for (EntryInfo row : block) {
        byte[] utf8 = EntryNames.utf8(row.name());
        if (previous != null && java.util.Arrays.compareUnsigned(previous, utf8) >= 0) {
          findings.problem(name, "rows out of order at '" + row.name() + "'");
        }
        previous = utf8;
        String why = EntryNames.whyNotNormal(row.name());
        if (why != null) {
          findings.problem(
              name, "entry name '" + EntryNames.shown(row.name()) + "' is not allowed: " + why);
        }
        long hash = NameHash.of(utf8);
        checkIndex(segment, buckets, row, utf8, hash);
        rows++;
        if (!row.deleted()) {
          live++;
          boolean shadowed = DirectoryNames.newestRecord(newer, utf8, hash) != null;
          if (!shadowed) {
            reachable++;
            directories.check(row.name());
          }
          placed.add(row, !shadowed);
        }
      }
    }
    if (live != segment.ref().entryCount() && findings.none()) {
      findings.problem(
          name, "catalog has " + live + " live rows, manifest says " + segment.ref().entryCount());
    }
    long records = buckets.stream().mapToLong(b -> b == null ? 0 : b.keyCount()).sum();
    // A bucket that could not be read was reported; its records are not counted, so the totals
    // would differ for that reason alone.
    if (!buckets.contains(null) && records != rows) {
      findings.problem(name, "index has " + records + " records, catalog has " + rows + " rows");
    }
    return reachable;
  }

  /** A row is found through the index where the row says. */
  void checkIndex(
      SegmentReader segment, List<IndexBucket> buckets, EntryInfo row, byte[] utf8, long hash)
      throws IOException {
    SegmentDirectory dir = segment.directory();
    int b = dir.bucketFor(hash);
    IndexBucket bucket = b < 0 ? null : buckets.get(b);
    if (b >= 0 && bucket == null) {
      return; // already reported as damaged
    }
    try {
      IndexRecord record = bucket == null ? null : bucket.find(utf8, hash);
      boolean matches =
          record != null
              && (row.deleted()
                  ? record.isTombstone()
                  : record.partId() == row.partId()
                      && record.offset() == row.offset()
                      && record.entryLength() == row.entryLength());
      if (!matches) {
        findings.problem(
            b < 0
                ? Section.catalog(segment.ref())
                : Section.bucket(segment.ref(), dir.buckets().get(b)),
            "index does not lead to '"
                + row.name()
                + "' (catalog: part "
                + row.partId()
                + " offset "
                + row.offset()
                + ", index: "
                + record
                + ")");
      }
    } catch (CorruptArchiveException e) {
      findings.problem(e);
    }
  }

  /**
   * The segment's buckets, each record checked against its CRC and its slot's fingerprint; null for
   * a bucket that could not be read (reported).
   */
  List<IndexBucket> readBuckets(SegmentReader segment) throws IOException {
    SegmentDirectory dir = segment.directory();
    List<IndexBucket> buckets = new ArrayList<>();
    for (int i = 0; i < dir.buckets().size(); i++) {
      IndexBucket bucket;
      try {
        bucket = segment.bucket(i);
        for (int slot = 0; slot < bucket.keyCount(); slot++) {
          IndexRecord record = bucket.recordAt(slot); // checks the record's CRC
          if (!bucket.slotFingerprintMatches(slot, record)) {
            findings.problem(
                Section.bucket(segment.ref(), dir.buckets().get(i)),
                "slot " + slot + ": in-memory fingerprint differs from its record");
          }
        }
      } catch (CorruptArchiveException e) {
        findings.problem(e);
        bucket = null; // one entry per bucket, so that rows find theirs by index
      }
      buckets.add(bucket);
    }
    return buckets;
  }
}
