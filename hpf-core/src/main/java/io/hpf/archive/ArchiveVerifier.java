package io.hpf.archive;

import io.hpf.archive.VerifyReport.Problem;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
    try (ArchiveReader reader = new ArchiveReader(storage, manifest)) {
      Map<Integer, TreeMap<Long, List<Row>>> rowsByPart = new HashMap<>();
      // Names of newer segments: a row they shadow points at a dead entry, checked all the same.
      Set<String> newer = new HashSet<>();
      Set<String> liveNames = new HashSet<>();
      long total = 0;
      for (SegmentReader segment : reader.segmentsNewestFirst()) {
        List<EntryInfo> rows = checkCatalog(segment);
        checkIndex(segment, rows);
        for (EntryInfo row : rows) {
          if (!row.deleted()) {
            boolean live = !newer.contains(row.name());
            if (live) {
              liveNames.add(row.name());
            }
            rowsByPart
                .computeIfAbsent(row.partId(), k -> new TreeMap<>())
                .computeIfAbsent(row.offset(), k -> new ArrayList<>(1))
                .add(new Row(row, live));
            total += live ? 1 : 0;
          }
        }
        if (segment != reader.segmentsNewestFirst().get(reader.segmentsNewestFirst().size() - 1)) {
          rows.forEach(r -> newer.add(r.name()));
        }
      }
      checkNoNameIsAlsoADirectory(liveNames, manifest);
      for (Generation.Part part : manifest.parts()) {
        TreeMap<Long, List<Row>> live = rowsByPart.remove(part.partId());
        checkPart(reader, part, live == null ? new TreeMap<>() : live, total);
      }
      for (Map.Entry<Integer, TreeMap<Long, List<Row>>> e : rowsByPart.entrySet()) {
        EntryInfo row = e.getValue().firstEntry().getValue().get(0).info();
        problem(
            FileNames.partFileName(e.getKey()),
            row.offset(),
            "catalog row '" + row.name() + "' names part " + e.getKey() + ", which is not listed");
      }
    }
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
  /**
   * Reports each live name that is also a directory of other live names ({@code d/x} beside {@code
   * d/x/y}): writers refuse such names, archives made before they did may hold them (FORMAT.md
   * "Entry names"), from the live names the catalogs gave (no read of its own).
   */
  private void checkNoNameIsAlsoADirectory(Set<String> names, Manifest manifest) {
    List<String> nested = new ArrayList<>();
    for (String name : names) {
      if (name.indexOf('/') >= 0) {
        nested.add(name);
      }
    }
    nested.sort(null); // reported in a stable order
    Set<String> reported = new HashSet<>();
    for (String name : nested) {
      for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
        String parent = name.substring(0, slash);
        if (names.contains(parent) && reported.add(parent)) {
          problem(
              FileNames.manifestFileName(manifest.generation()),
              -1,
              "entry '" + parent + "' is also a directory (of '" + name + "')");
        }
      }
    }
  }

  private void checkWholeFile(String name, long length, List<KindedSection> sections)
      throws IOException {
    if (length > Integer.MAX_VALUE - 16) {
      problem(name, -1, "file of " + length + " bytes is larger than any index file can be");
      return;
    }
    try (ReadableFile file = storage.openRead(name, FileUse.ONCE)) {
      byte[] bytes = file.readFully(0, (int) length);
      bytesChecked += length;
      String kind =
          switch (FileNames.kindOf(name)) {
            case SEGMENT -> FormatConstants.KIND_SEGMENT;
            case BUCKET -> FormatConstants.KIND_BUCKET;
            case CATALOG -> FormatConstants.KIND_CATALOG;
            default -> FormatConstants.KIND_DICTIONARY;
          };
      FileFraming.checkHeader(storage.describe(name), bytes, 0, bytes.length, kind);
      FileFraming.checkFooter(storage.describe(name), bytes, bytes.length);
      for (KindedSection s : sections) {
        // The manifest's decoder has placed each section inside the file.
        int at = (int) s.section().offset();
        int sectionLength = (int) s.section().length();
        String where = s.section().describe(storage);
        try {
          FileFraming.checkHeader(where, bytes, at, sectionLength, s.kind());
          FileFraming.checkFooter(where, bytes, at, sectionLength);
        } catch (CorruptArchiveException e) {
          problem(e);
        }
      }
    } catch (CorruptArchiveException e) {
      problem(e);
    }
  }

  private List<EntryInfo> checkCatalog(SegmentReader segment) throws IOException {
    List<EntryInfo> rows = new ArrayList<>();
    Section name = Section.catalog(segment.ref());
    CatalogReader catalog;
    try {
      catalog = segment.catalog();
    } catch (CorruptArchiveException e) {
      problem(e);
      return rows;
    }
    byte[] previous = null;
    for (int b = 0; b < catalog.blockCount(); b++) {
      try {
        for (EntryInfo row : catalog.readBlock(b)) {
          byte[] utf8 = EntryNames.utf8(row.name());
          if (previous != null && java.util.Arrays.compareUnsigned(previous, utf8) >= 0) {
            problem(name, "rows out of order at '" + row.name() + "'");
          }
          previous = utf8;
          String why = EntryNames.whyNotNormal(row.name());
          if (why != null) {
            problem(
                name, "entry name '" + EntryNames.shown(row.name()) + "' is not allowed: " + why);
          }
          rows.add(row);
        }
      } catch (CorruptArchiveException e) {
        problem(e);
      }
    }
    long live = rows.stream().filter(r -> !r.deleted()).count();
    if (live != segment.ref().entryCount() && problems.isEmpty()) {
      problem(
          name, "catalog has " + live + " live rows, manifest says " + segment.ref().entryCount());
    }
    return rows;
  }

  /** Every row is found through the index where the row says, and no record is left over. */
  private void checkIndex(SegmentReader segment, List<EntryInfo> rows) throws IOException {
    SegmentDirectory dir = segment.directory();
    List<IndexBucket> buckets = readBuckets(segment);
    long records = buckets.stream().mapToLong(b -> b == null ? 0 : b.keyCount()).sum();
    // A bucket that could not be read was reported; its records are not counted, so the totals
    // would differ for that reason alone.
    if (!buckets.contains(null) && records != rows.size()) {
      problem(
          Section.catalog(segment.ref()),
          "index has " + records + " records, catalog has " + rows.size() + " rows");
    }
    for (EntryInfo row : rows) {
      byte[] utf8 = EntryNames.utf8(row.name());
      long hash = NameHash.of(utf8);
      int b = dir.bucketFor(hash);
      IndexBucket bucket = b < 0 ? null : buckets.get(b);
      if (b >= 0 && bucket == null) {
        continue; // already reported as damaged
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
   * The rows that place an entry where the walk found it, taken out of {@code live}: all rows at
   * its offset for an entry on its own, those of its name for a member of a group. Null if none.
   */
  private static List<Row> rowsOf(TreeMap<Long, List<Row>> live, PartEntry entry) {
    if (!entry.inGroup()) {
      return live.remove(entry.offset());
    }
    List<Row> atGroup = live.get(entry.offset());
    if (atGroup == null) {
      return null;
    }
    List<Row> mine = new ArrayList<>(1);
    atGroup.removeIf(r -> r.info().name().equals(entry.header().name()) && mine.add(r));
    if (atGroup.isEmpty()) {
      live.remove(entry.offset());
    }
    return mine.isEmpty() ? null : mine;
  }

  /** A catalog row and whether it is live in the archive (no newer segment shadows it). */
  private record Row(EntryInfo info, boolean live) {}

  /**
   * Walks a part entry by entry from its header to its committed length and checks each entry by
   * its place: header, name and content checksum, live or not (replaced and deleted entries stay
   * until a reclaiming compaction), whatever its size. The entries must follow each other exactly,
   * and every live row must find its entry where it says, as the catalog describes it. After damage
   * that hides where the next entry starts, the walk goes on at the next live row.
   */
  private void checkPart(
      ArchiveReader reader, Generation.Part part, TreeMap<Long, List<Row>> live, long total)
      throws IOException {
    String name = FileNames.partFileName(part.partId());
    String path = storage.describe(name);
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
      while (true) {
        PartEntry entry;
        try {
          entry = scanner.next();
        } catch (CorruptArchiveException e) {
          problem(e);
          Long resume = live.higherKey(position);
          live.headMap(resume == null ? Long.MAX_VALUE : resume).clear(); // reported above
          if (resume == null) {
            break;
          }
          scanner.seek(resume);
          position = resume;
          continue;
        }
        if (entry == null) {
          break;
        }
        position = entry.end();
        checkEntry(name, scanner, entry, live, total);
      }
    } catch (CorruptArchiveException e) {
      problem(e);
      return;
    }
    for (long offset : live.keySet()) {
      problem(name, offset, "a live entry is indexed here, but no entry starts at this offset");
    }
  }

  /** Checks one entry the scan found against its rows, its group and its checksum. */
  private void checkEntry(
      String name, PartScanner scanner, PartEntry entry, TreeMap<Long, List<Row>> live, long total)
      throws IOException {
    List<Row> rows = rowsOf(live, entry);
    checkAgainstRows(name, entry, rows);
    if (entry.inGroup() && entry.member() == entry.group().size() - 1) {
      checkGroupHoldsItsRows(name, entry, live.remove(entry.offset()));
    }
    try {
      scanner.reader().check(entry);
      bytesChecked += entry.member() == 0 ? entry.length() : 0; // a group's bytes once
      if (rows != null && rows.stream().anyMatch(Row::live)) {
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
  private void checkAgainstRows(String name, PartEntry entry, List<Row> rows) {
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
    for (Row r : rows) {
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
  private void checkGroupHoldsItsRows(String name, PartEntry entry, List<Row> missing) {
    for (Row r : missing == null ? List.<Row>of() : missing) {
      problem(
          name,
          entry.offset(),
          "catalog says '" + r.info().name() + "' is in the group here, which does not hold it");
    }
  }
}
