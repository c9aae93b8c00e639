package io.hpf.archive;

import io.hpf.archive.VerifyReport.Problem;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.ProgressListener;
import io.hpf.internal.catalog.CatalogReader;
import io.hpf.internal.format.EntryHeader;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.NameHash;
import io.hpf.internal.format.PartEntry;
import io.hpf.internal.format.PartScanner;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.index.IndexBucket;
import io.hpf.internal.index.IndexRecord;
import io.hpf.internal.index.SegmentDirectory;
import io.hpf.internal.manifest.ArchiveFiles;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.internal.manifest.Section;
import io.hpf.internal.read.SegmentReader;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks an archive completely: reads every byte of every file the manifest names, checks every
 * checksum (file footers, bucket meta and records, catalog blocks, entry headers and content), and
 * cross-checks the pieces: every catalog row is found through the index at the same place, every
 * record is a row, and the entries of each part file tile it exactly up to its committed length. It
 * goes on after a problem, so the report lists every damaged file. The same check serves tests,
 * {@code hpf verify} and benchmarks.
 */
public final class ArchiveVerifier {
  private final Storage storage;
  private final ProgressListener progress;
  private final List<Problem> problems = new ArrayList<>();
  private long entriesChecked;
  private long bytesChecked;

  private ArchiveVerifier(Storage storage, ProgressListener progress) {
    this.storage = storage;
    this.progress = progress;
  }

  public static VerifyReport verify(Storage storage, ProgressListener progress) throws IOException {
    ArchiveVerifier v = new ArchiveVerifier(storage, progress);
    v.run();
    return new VerifyReport(v.entriesChecked, v.bytesChecked, v.problems);
  }

  private void problem(CorruptArchiveException e) {
    problems.add(new Problem(e.file(), e.offset(), e.getMessage()));
  }

  private void problem(String fileName, long offset, String message) {
    problemIn(storage.describe(fileName), offset, message);
  }

  /** A problem of a catalog or a bucket, wherever it is. */
  private void problem(Section section, String message) {
    problemIn(section.describe(storage), -1, message);
  }

  private void problemIn(String file, long offset, String message) {
    problems.add(
        new Problem(
            file, offset, file + (offset >= 0 ? " at offset " + offset : "") + ": " + message));
  }

  private void run() throws IOException {
    List<StoredFile> listing = storage.list();
    Manifest manifest;
    try {
      manifest = ManifestStore.readNewest(storage, listing);
    } catch (CorruptArchiveException e) {
      problem(e);
      return;
    }
    for (String p : ArchiveFiles.problems(storage, manifest, listing)) {
      problems.add(new Problem(p.substring(0, p.indexOf(": ")), -1, p));
    }
    if (!problems.isEmpty()) {
      return; // later checks would only repeat "missing" and "truncated" in other words
    }
    for (ArchiveFiles.Expected e : ArchiveFiles.expected(manifest)) {
      if (!e.mayBeLonger()) {
        checkWholeFile(e.name(), e.length(), sectionsOf(manifest, e.name()));
      }
    }
    try (ArchiveReader reader = new ArchiveReader(storage, manifest);
        PlacedRows placed = new PlacedRows()) {
      List<SegmentReader> segments = reader.segmentsNewestFirst();
      long total = 0;
      DirectoryNames directories =
          new DirectoryNames(
              segments,
              (parent, under) ->
                  problem(
                      FileNames.manifestFileName(manifest.generation()),
                      -1,
                      "entry '" + parent + "' is also a directory (of '" + under + "')"));
      for (int s = 0; s < segments.size(); s++) {
        total += checkSegment(segments.get(s), segments.subList(0, s), placed, directories);
      }
      placed.sort();
      Set<Integer> listed = new HashSet<>();
      for (Generation.Part part : manifest.parts()) {
        listed.add(part.partId());
      }
      // Rows come in part order; the manifest's parts are walked as their rows come.
      for (long id = placed.nextPart(); id >= 0; id = placed.nextPart()) {
        int partId = (int) id;
        if (listed.remove(partId)) {
          checkPart(reader, partOf(manifest, partId), placed, total);
        } else {
          EntryInfo row = placed.peek(partId).info();
          problem(
              FileNames.partFileName(partId),
              row.offset(),
              "catalog row '" + row.name() + "' names part " + partId + ", which is not listed");
          placed.skipBefore(partId, Long.MAX_VALUE, offset -> {});
        }
      }
      for (Generation.Part part : manifest.parts()) {
        if (listed.contains(part.partId())) {
          checkPart(reader, part, placed, total); // no row names an entry in it
        }
      }
    }
  }

  private static Generation.Part partOf(Manifest manifest, int partId) {
    return manifest.parts().stream().filter(p -> p.partId() == partId).findFirst().orElseThrow();
  }

  /** A section of a segment file and the kind of file it is. */
  private record KindedSection(Section section, String kind) {}

  /** The sections the manifest places in a segment file; none for any other file. */
  private static List<KindedSection> sectionsOf(Manifest m, String fileName) {
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
  private void checkWholeFile(String name, long length, List<KindedSection> sections)
      throws IOException {
    String kind =
        switch (FileNames.kindOf(name)) {
          case SEGMENT -> FormatConstants.KIND_SEGMENT;
          case BUCKET -> FormatConstants.KIND_BUCKET;
          case CATALOG -> FormatConstants.KIND_CATALOG;
          default -> FormatConstants.KIND_DICTIONARY;
        };
    try (ReadableFile file = storage.openRead(name, FileUse.ONCE)) {
      checkFraming(file, storage.describe(name), 0, length, kind);
      bytesChecked += length;
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
          problem(e);
        }
      }
    } catch (CorruptArchiveException e) {
      problem(e);
    }
  }

  /** The header and footer of the file, or section, of {@code length} bytes at {@code offset}. */
  private static void checkFraming(
      ReadableFile file, String where, long offset, long length, String kind) throws IOException {
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
  private long checkSegment(
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
      problem(e);
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
        problem(e);
        continue;
      }
      for (EntryInfo row : block) {
        byte[] utf8 = EntryNames.utf8(row.name());
        if (previous != null && java.util.Arrays.compareUnsigned(previous, utf8) >= 0) {
          problem(name, "rows out of order at '" + row.name() + "'");
        }
        previous = utf8;
        String why = EntryNames.whyNotNormal(row.name());
        if (why != null) {
          problem(name, "entry name '" + EntryNames.shown(row.name()) + "' is not allowed: " + why);
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
    if (live != segment.ref().entryCount() && problems.isEmpty()) {
      problem(
          name, "catalog has " + live + " live rows, manifest says " + segment.ref().entryCount());
    }
    long records = buckets.stream().mapToLong(b -> b == null ? 0 : b.keyCount()).sum();
    // A bucket that could not be read was reported; its records are not counted, so the totals
    // would differ for that reason alone.
    if (!buckets.contains(null) && records != rows) {
      problem(name, "index has " + records + " records, catalog has " + rows + " rows");
    }
    return reachable;
  }

  /** A row is found through the index where the row says. */
  private void checkIndex(
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
        problem(
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
      problem(e);
    }
  }

  /**
   * The segment's buckets, each record checked against its CRC and its slot's fingerprint; null for
   * a bucket that could not be read (reported).
   */
  private List<IndexBucket> readBuckets(SegmentReader segment) throws IOException {
    SegmentDirectory dir = segment.directory();
    List<IndexBucket> buckets = new ArrayList<>();
    for (int i = 0; i < dir.buckets().size(); i++) {
      IndexBucket bucket;
      try {
        bucket = segment.bucket(i);
        for (int slot = 0; slot < bucket.keyCount(); slot++) {
          IndexRecord record = bucket.recordAt(slot); // checks the record's CRC
          if (!bucket.slotFingerprintMatches(slot, record)) {
            problem(
                Section.bucket(segment.ref(), dir.buckets().get(i)),
                "slot " + slot + ": in-memory fingerprint differs from its record");
          }
        }
      } catch (CorruptArchiveException e) {
        problem(e);
        bucket = null; // one entry per bucket, so that rows find theirs by index
      }
      buckets.add(bucket);
    }
    return buckets;
  }

  /**
   * Walks a part entry by entry from its header to its committed length and checks each entry by
   * its place: header, name and content checksum, live or not (replaced and deleted entries stay
   * until a reclaiming compaction), whatever its size. The entries must follow each other exactly,
   * and every row must find its entry where it says, as the catalog describes it ({@code placed}
   * gives the part's rows in place order as the walk reaches them). After damage that hides where
   * the next entry starts, the walk goes on at the next row's place.
   */
  private void checkPart(ArchiveReader reader, Generation.Part part, PlacedRows placed, long total)
      throws IOException {
    int partId = part.partId();
    String name = FileNames.partFileName(partId);
    String path = storage.describe(name);
    java.util.function.LongConsumer noEntryThere =
        offset ->
            problem(
                name, offset, "a live entry is indexed here, but no entry starts at this offset");
    try (ReadableFile file = storage.openRead(name, FileUse.ONCE)) {
      byte[] header = file.readFully(0, FormatConstants.FILE_HEADER_BYTES);
      FileFraming.checkHeader(path, header, 0, header.length, FormatConstants.KIND_PART);
      long committed = part.committedLength();
      PartScanner scanner =
          new PartScanner(
              file,
              path,
              FormatConstants.FILE_HEADER_BYTES,
              committed,
              committed,
              reader::dictionary);
      long position = FormatConstants.FILE_HEADER_BYTES;
      List<PlacedRows.Row> group = null; // the rows at the group being walked, until its end
      while (true) {
        PartEntry entry;
        try {
          entry = scanner.next();
        } catch (CorruptArchiveException e) {
          problem(e);
          placed.skipBefore(partId, position + 1, offset -> {}); // reported above
          PlacedRows.Row resume = placed.peek(partId);
          if (resume == null) {
            break;
          }
          position = resume.info().offset();
          scanner.seek(position);
          group = null;
          continue;
        }
        if (entry == null) {
          break;
        }
        position = entry.end();
        placed.skipBefore(partId, entry.offset(), noEntryThere);
        List<PlacedRows.Row> rows;
        if (!entry.inGroup()) {
          rows = placed.takeAt(partId, entry.offset());
        } else {
          if (entry.member() == 0 || group == null) {
            group = new ArrayList<>(placed.takeAt(partId, entry.offset()));
          }
          rows = new ArrayList<>(1);
          List<PlacedRows.Row> mine = rows;
          group.removeIf(r -> r.info().name().equals(entry.header().name()) && mine.add(r));
        }
        checkEntry(name, scanner, entry, rows.isEmpty() ? null : rows, total);
        if (entry.inGroup() && entry.member() == entry.group().size() - 1) {
          checkGroupHoldsItsRows(name, entry, group);
          group = null;
        }
      }
    } catch (CorruptArchiveException e) {
      problem(e);
      placed.skipBefore(partId, Long.MAX_VALUE, offset -> {});
      return;
    }
    placed.skipBefore(partId, Long.MAX_VALUE, noEntryThere);
  }

  /** Checks one entry the scan found against its rows (null if none) and its checksum. */
  private void checkEntry(
      String name, PartScanner scanner, PartEntry entry, List<PlacedRows.Row> rows, long total)
      throws IOException {
    checkAgainstRows(name, entry, rows);
    try {
      scanner.reader().check(entry);
      bytesChecked += entry.member() == 0 ? entry.length() : 0; // a group's bytes once
      if (rows != null && rows.stream().anyMatch(PlacedRows.Row::live)) {
        entriesChecked++;
        progress.progress(entriesChecked, bytesChecked, total, -1);
      }
    } catch (CorruptArchiveException e) {
      problem(e);
    }
  }

  /**
   * An entry no live row names must have a name the format allows; one that live rows name must be
   * what each row says (name, lengths, codec, place in its group).
   */
  private void checkAgainstRows(String name, PartEntry entry, List<PlacedRows.Row> rows) {
    EntryHeader h = entry.header();
    if (rows == null) {
      String why = EntryNames.whyNotNormal(h.name());
      if (why != null) {
        problem(
            name,
            entry.offset(),
            "entry name '" + EntryNames.shown(h.name()) + "' is not allowed: " + why);
      }
      return;
    }
    for (PlacedRows.Row r : rows) {
      EntryInfo row = r.info();
      if (!h.name().equals(row.name())) {
        problem(
            name,
            entry.offset(),
            "catalog says '" + row.name() + "' is here, the entry header names '" + h.name() + "'");
      } else if (h.rawLength() != row.rawLength()
          || h.storedLength() != row.storedLength()
          || h.codec() != row.codec()
          || entry.length() != row.entryLength()
          || entry.member() != row.member()
          || entry.members() != row.members()) {
        problem(name, entry.offset(), "entry '" + row.name() + "' differs from its catalog row");
      }
    }
  }

  /** After a group's last member: rows still placed in the group name no member of it. */
  private void checkGroupHoldsItsRows(String name, PartEntry entry, List<PlacedRows.Row> missing) {
    for (PlacedRows.Row r : missing == null ? List.<PlacedRows.Row>of() : missing) {
      problem(
          name,
          entry.offset(),
          "catalog says '" + r.info().name() + "' is in the group here, which does not hold it");
    }
  }
}
