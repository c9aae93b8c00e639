package io.hpf.archive;

import io.hpf.catalog.CatalogReader;
import io.hpf.format.CorruptArchiveException;
import io.hpf.format.EntryHeader;
import io.hpf.format.EntryInfo;
import io.hpf.format.FileFraming;
import io.hpf.format.FormatConstants;
import io.hpf.format.NameHash;
import io.hpf.index.IndexBucket;
import io.hpf.index.IndexRecord;
import io.hpf.index.SegmentDirectory;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.StoredFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    String file = storage.describe(fileName);
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
        checkWholeFile(e.name(), e.length());
      }
    }
    try (ArchiveReader reader = new ArchiveReader(storage, manifest)) {
      long total =
          manifest.segments().stream().mapToLong(s -> s.entryCount() + s.tombstoneCount()).sum();
      Map<Integer, List<EntryInfo>> rowsByPart = new HashMap<>();
      for (SegmentReader segment : reader.segmentsNewestFirst()) {
        List<EntryInfo> rows = checkCatalog(segment);
        checkIndex(segment, rows);
        for (EntryInfo row : rows) {
          if (!row.deleted()) {
            rowsByPart.computeIfAbsent(row.partId(), k -> new ArrayList<>()).add(row);
            checkEntry(reader, row);
            progress.progress(entriesChecked, bytesChecked, total, -1);
          }
        }
      }
      for (Manifest.PartRef part : manifest.parts()) {
        checkPart(reader, part, rowsByPart.getOrDefault(part.partId(), List.of()));
      }
    }
  }

  /** Reads a whole file (not a part) and checks its header and footer CRC. */
  private void checkWholeFile(String name, long length) throws IOException {
    if (length > Integer.MAX_VALUE - 16) {
      problem(name, -1, "file of " + length + " bytes is larger than any index file can be");
      return;
    }
    try (ReadableFile file = storage.openRead(name)) {
      byte[] bytes = file.readFully(0, (int) length);
      bytesChecked += length;
      String kind =
          name.endsWith(".hpfx")
              ? FormatConstants.KIND_BUCKET
              : name.endsWith(".hpfc")
                  ? FormatConstants.KIND_CATALOG
                  : FormatConstants.KIND_DICTIONARY;
      FileFraming.checkHeader(storage.describe(name), bytes, 0, bytes.length, kind);
      FileFraming.checkFooter(storage.describe(name), bytes, bytes.length);
    } catch (CorruptArchiveException e) {
      problem(e);
    }
  }

  private List<EntryInfo> checkCatalog(SegmentReader segment) throws IOException {
    List<EntryInfo> rows = new ArrayList<>();
    String name = FormatConstants.catalogFileName(segment.ref().segmentId());
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
          byte[] utf8 = row.name().getBytes(StandardCharsets.UTF_8);
          if (previous != null && java.util.Arrays.compareUnsigned(previous, utf8) >= 0) {
            problem(name, -1, "rows out of order at '" + row.name() + "'");
          }
          previous = utf8;
          rows.add(row);
        }
      } catch (CorruptArchiveException e) {
        problem(e);
      }
    }
    long live = rows.stream().filter(r -> !r.deleted()).count();
    if (live != segment.ref().entryCount() && problems.isEmpty()) {
      problem(
          name,
          -1,
          "catalog has " + live + " live rows, manifest says " + segment.ref().entryCount());
    }
    return rows;
  }

  /** Every row is found through the index where the row says, and no record is left over. */
  private void checkIndex(SegmentReader segment, List<EntryInfo> rows) throws IOException {
    SegmentDirectory dir = segment.directory();
    long records = 0;
    List<IndexBucket> buckets = new ArrayList<>();
    for (int i = 0; i < dir.buckets().size(); i++) {
      try {
        IndexBucket bucket = segment.bucket(i);
        buckets.add(bucket);
        records += bucket.keyCount();
        for (int slot = 0; slot < bucket.keyCount(); slot++) {
          IndexRecord record = bucket.recordAt(slot); // checks the record's CRC
          if (!bucket.slotFingerprintMatches(slot, record)) {
            problem(
                FormatConstants.bucketFileName(
                    segment.ref().segmentId(), dir.buckets().get(i).bucketNo()),
                -1,
                "slot " + slot + ": in-memory fingerprint differs from its record");
          }
        }
      } catch (CorruptArchiveException e) {
        problem(e);
        buckets.add(null);
      }
    }
    if (records != rows.size()) {
      problem(
          FormatConstants.catalogFileName(segment.ref().segmentId()),
          -1,
          "index has " + records + " records, catalog has " + rows.size() + " rows");
    }
    for (EntryInfo row : rows) {
      byte[] utf8 = row.name().getBytes(StandardCharsets.UTF_8);
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
              FormatConstants.bucketFileName(
                  segment.ref().segmentId(), b < 0 ? -1 : dir.buckets().get(b).bucketNo()),
              -1,
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

  private void checkEntry(ArchiveReader reader, EntryInfo row) throws IOException {
    IndexRecord record = new IndexRecord(0, row.partId(), row.offset(), row.entryLength());
    try {
      ArchiveReader.Located located = reader.readEntry(row.name(), record, true);
      String part = FormatConstants.partFileName(row.partId());
      if (located == null) {
        problem(
            part,
            row.offset(),
            "catalog says '" + row.name() + "' is here, the entry header names another");
        return;
      }
      EntryHeader h = located.header();
      if (h.rawLength() != row.rawLength()
          || h.storedLength() != row.storedLength()
          || h.codec() != row.codec()) {
        problem(part, row.offset(), "entry '" + row.name() + "' differs from its catalog row");
      }
      if (located.bytes() != null) {
        located.content();
      } else {
        try (InputStream in = reader.openStream(row.name())) {
          in.transferTo(java.io.OutputStream.nullOutputStream());
        }
      }
      entriesChecked++;
      bytesChecked += row.entryLength();
    } catch (CorruptArchiveException e) {
      problem(e);
    }
  }

  /**
   * Walks a part entry by entry from its header to its committed length: every entry, live or not
   * (replaced and deleted entries stay until a reclaiming compaction), must be intact and they must
   * follow each other exactly; every live row must start at an entry.
   */
  private void checkPart(ArchiveReader reader, Manifest.PartRef part, List<EntryInfo> rows)
      throws IOException {
    String name = FormatConstants.partFileName(part.partId());
    String path = storage.describe(name);
    java.util.Set<Long> live = new java.util.HashSet<>();
    for (EntryInfo row : rows) {
      live.add(row.offset());
    }
    try (ReadableFile file = storage.openRead(name)) {
      byte[] header = file.readFully(0, FormatConstants.FILE_HEADER_BYTES);
      FileFraming.checkHeader(path, header, 0, header.length, FormatConstants.KIND_PART);
      long at = FormatConstants.FILE_HEADER_BYTES;
      while (true) {
        at = io.hpf.format.EntryCodec.skipPadding(file, at, part.committedLength());
        if (at >= part.committedLength()) {
          break;
        }
        int probe = (int) Math.min(part.committedLength() - at, 1 << 16);
        byte[] head = file.readFully(at, probe);
        int headerLength = probe >= 8 ? io.hpf.format.ByteReader.getU32(head, 4) : 0;
        if (headerLength > probe && headerLength <= part.committedLength() - at) {
          head = file.readFully(at, headerLength);
        }
        EntryHeader h = io.hpf.format.EntryCodec.parseHeader(path, at, head, 0, head.length);
        long end = at + h.entryLength();
        if (end > part.committedLength()) {
          problem(
              name,
              at,
              "entry '"
                  + h.name()
                  + "' of "
                  + h.entryLength()
                  + " bytes runs past the committed length "
                  + part.committedLength());
          return;
        }
        if (!live.remove(at)) { // live entries were checked through the catalog
          checkDeadEntry(reader, file, path, at, h);
        }
        at = end;
      }
    } catch (CorruptArchiveException e) {
      problem(e);
      return;
    }
    for (long offset : live) {
      problem(name, offset, "a live entry is indexed here, but no entry starts at this offset");
    }
  }

  private void checkDeadEntry(
      ArchiveReader reader, ReadableFile file, String path, long at, EntryHeader h)
      throws IOException {
    if (h.entryLength() > Integer.MAX_VALUE - 16) {
      return; // a multi-GiB dead entry: its header was checked; reclaim will drop it
    }
    byte[] whole = file.readFully(at, (int) h.entryLength());
    ArchiveReader.decode(path, at, h, whole, reader.dictionaryFor(h));
    bytesChecked += h.entryLength();
  }
}
