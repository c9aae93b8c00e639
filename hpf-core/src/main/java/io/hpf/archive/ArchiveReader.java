package io.hpf.archive;

import io.hpf.format.ByteReader;
import io.hpf.format.ContentDecompressor;
import io.hpf.format.CorruptArchiveException;
import io.hpf.format.Dictionary;
import io.hpf.format.EntryCodec;
import io.hpf.format.EntryHeader;
import io.hpf.format.EntryInfo;
import io.hpf.format.EntryNames;
import io.hpf.format.FileFraming;
import io.hpf.format.FormatConstants;
import io.hpf.format.NameHash;
import io.hpf.index.IndexRecord;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.StoredFile;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads an archive: the snapshot of its newest manifest at the time of opening.
 *
 * <p>A lookup hashes the name, picks the bucket from the in-memory directory, maps the name to a
 * slot with the bucket's perfect hash (loaded once, then cached), reads that one 32-byte record and
 * then the entry, whose header must carry the same name. Warm, that is two positioned reads and no
 * file opens; segments are searched newest first and a tombstone ends the search.
 *
 * <p>Thread-safe: every method may be called from many threads at once.
 */
public final class ArchiveReader implements Closeable {
  /** Entries up to this size are read whole by {@link #openStream}; larger ones are streamed. */
  private static final int STREAM_WHOLE_MAX_BYTES = 16 << 20;

  /** Entries up to this size are read into a per-thread buffer rather than a new array. */
  private static final int SCRATCH_MAX_BYTES = 1 << 20;

  private static final ThreadLocal<byte[][]> SCRATCH =
      ThreadLocal.withInitial(() -> new byte[][] {new byte[16 * 1024]});

  /** This thread's read buffer, at least {@code size} bytes. */
  private static byte[] scratch(int size) {
    byte[][] holder = SCRATCH.get();
    if (holder[0].length < size) {
      holder[0] = new byte[Math.max(size, 2 * holder[0].length)];
    }
    return holder[0];
  }

  /** Enough for the header of almost every entry, so stat is usually one read. */
  private static final int HEADER_PROBE_BYTES = 4096;

  private final Storage storage;
  private final Manifest manifest;
  private final List<SegmentReader> segmentsNewestFirst;
  private final Map<Integer, Long> committedLengths = new HashMap<>();
  private final ConcurrentHashMap<Integer, ReadableFile> parts = new ConcurrentHashMap<>();

  /** Part file paths for messages, made once per part rather than on every read. */
  private final ConcurrentHashMap<Integer, String> partPaths = new ConcurrentHashMap<>();

  private final ConcurrentHashMap<Integer, Dictionary> dictionaries = new ConcurrentHashMap<>();

  ArchiveReader(Storage storage, Manifest manifest) {
    this.storage = storage;
    this.manifest = manifest;
    List<SegmentReader> segments = new ArrayList<>();
    for (Manifest.SegmentRef ref : manifest.segments()) {
      segments.add(0, new SegmentReader(storage, ref));
    }
    this.segmentsNewestFirst = segments;
    for (Manifest.PartRef part : manifest.parts()) {
      committedLengths.put(part.partId(), part.committedLength());
    }
  }

  /**
   * Opens the newest generation. Checks cheaply that every file the manifest names is there with
   * the right length (one listing), so a missing or truncated file is reported now, by name, rather
   * than on some later read.
   */
  public static ArchiveReader open(Storage storage) throws IOException {
    List<StoredFile> files = storage.list();
    Manifest manifest = ManifestStore.readNewest(storage, files);
    ArchiveFiles.checkPresent(storage, manifest, files);
    return new ArchiveReader(storage, manifest);
  }

  public Manifest manifest() {
    return manifest;
  }

  public Storage storage() {
    return storage;
  }

  /** Live entries (a single-segment archive has no tombstones). */
  public long entryCount() {
    return manifest.entryCount();
  }

  /** The content of an entry, checked against its CRC32C. */
  public byte[] get(String name) throws IOException {
    Located located = locate(name, true);
    if (located == null) {
      throw new EntryNotFoundException(storage.toString(), name);
    }
    return located.content();
  }

  /** Entry metadata without reading the content, or null if there is no such entry. */
  public EntryInfo stat(String name) throws IOException {
    Located located = locate(name, false);
    return located == null ? null : located.info();
  }

  public boolean exists(String name) throws IOException {
    return locate(name, false) != null;
  }

  /**
   * The content as a stream. Entries up to 16 MiB are read and checked whole first; larger ones
   * (stored raw) are streamed and their CRC32C is checked at the end, where a mismatch is an {@link
   * IOException} from {@code read}.
   */
  public InputStream openStream(String name) throws IOException {
    Located located = locate(name, true);
    if (located == null) {
      throw new EntryNotFoundException(storage.toString(), name);
    }
    if (located.record.entryLength() <= STREAM_WHOLE_MAX_BYTES) {
      return new ByteArrayInputStream(located.content());
    }
    EntryHeader header = located.header;
    String file = partPath(located.record.partId());
    return new EntryContentStream(
        part(located.record.partId()),
        file,
        located.record.offset(),
        header,
        dictionaryFor(header));
  }

  /** Entries whose names start with {@code prefix}, in name order, deleted ones left out. */
  public Iterator<EntryInfo> list(String prefix) throws IOException {
    List<Iterator<EntryInfo>> sources = new ArrayList<>();
    for (SegmentReader segment : segmentsNewestFirst) {
      sources.add(segment.catalog().list(prefix));
    }
    return new MergedListing(sources);
  }

  /**
   * Visits every live entry with its content, in the order entries lie in the part files, read
   * through an 8 MiB read-ahead window per part (one read per window, not per entry: on HDFS a read
   * is a DataNode round trip). Each entry is checked as by {@link #get}.
   */
  public void scan(EntryVisitor visitor) throws IOException {
    List<EntryInfo> rows = new ArrayList<>();
    Iterator<EntryInfo> all = list("");
    while (all.hasNext()) {
      rows.add(all.next());
    }
    rows.sort(Comparator.comparingInt(EntryInfo::partId).thenComparingLong(EntryInfo::offset));
    // One read-ahead window per part: entries lie in part order, so a window serves many.
    ReadAheadFile ahead = null;
    int aheadPart = -1;
    for (EntryInfo row : rows) {
      if (ahead == null || aheadPart != row.partId()) {
        ahead = new ReadAheadFile(part(row.partId()));
        aheadPart = row.partId();
      }
      IndexRecord record = new IndexRecord(0, row.partId(), row.offset(), row.entryLength());
      Located located = readEntry(row.name(), null, record, true, ahead);
      if (located == null) {
        String file = partPath(row.partId());
        throw new CorruptArchiveException(
            file,
            row.offset(),
            "catalog says '" + row.name() + "' is here, the entry header names another");
      }
      try (InputStream content =
          located.bytes() != null
              ? new ByteArrayInputStream(located.content())
              : new EntryContentStream(
                  part(row.partId()),
                  located.file(),
                  row.offset(),
                  located.header(),
                  dictionaryFor(located.header()))) {
        visitor.visit(located.info(), content);
      }
    }
  }

  /** Bytes of index metadata this reader keeps in memory now. */
  public long indexMemoryBytes() {
    return segmentsNewestFirst.stream().mapToLong(SegmentReader::memoryBytes).sum();
  }

  List<SegmentReader> segmentsNewestFirst() {
    return segmentsNewestFirst;
  }

  /**
   * Finds a name, newest segment first; null if absent or deleted.
   *
   * @param withContent read the whole entry (if not over 16 MiB), not just its header
   */
  private Located locate(String name, boolean withContent) throws IOException {
    String normalized;
    try {
      normalized = EntryNames.normalize(name);
    } catch (IllegalArgumentException e) {
      return null; // no entry can have a name that does not normalize
    }
    byte[] nameUtf8 = normalized.getBytes(StandardCharsets.UTF_8);
    long nameHash = NameHash.of(nameUtf8);
    for (SegmentReader segment : segmentsNewestFirst) {
      IndexRecord record = segment.find(nameUtf8, nameHash);
      if (record == null) {
        continue;
      }
      if (record.isTombstone()) {
        return null;
      }
      Located located = readEntry(normalized, nameUtf8, record, withContent);
      if (located != null) {
        return located;
      }
      // Another name with the same 64-bit hash: this segment does not have ours.
    }
    return null;
  }

  /**
   * Reads the entry a record points to. Returns null if the entry is intact but has another name (a
   * fingerprint collision); throws if it is damaged.
   */
  Located readEntry(String name, IndexRecord record, boolean withContent) throws IOException {
    return readEntry(name, null, record, withContent);
  }

  /** As above, with the name's UTF-8 bytes when the caller has them (saves decoding). */
  Located readEntry(String name, byte[] nameUtf8, IndexRecord record, boolean withContent)
      throws IOException {
    return readEntry(name, nameUtf8, record, withContent, part(record.partId()));
  }

  /** As above, reading through {@code partFile} (a scan's read-ahead over the part). */
  private Located readEntry(
      String name, byte[] nameUtf8, IndexRecord record, boolean withContent, ReadableFile partFile)
      throws IOException {
    int partId = record.partId();
    String file = partPath(partId);
    Long committed = committedLengths.get(partId);
    if (committed == null
        || record.offset() < FormatConstants.FILE_HEADER_BYTES
        || record.offset() + record.entryLength() > committed) {
      throw new CorruptArchiveException(
          file,
          record.offset(),
          "index points to an entry of "
              + record.entryLength()
              + " bytes outside the committed part"
              + (committed == null
                  ? " (no part " + partId + " in the manifest)"
                  : " of " + committed + " bytes"));
    }
    boolean whole = withContent && record.entryLength() <= STREAM_WHOLE_MAX_BYTES;
    int probe =
        (int) Math.min(record.entryLength(), whole ? STREAM_WHOLE_MAX_BYTES : HEADER_PROBE_BYTES);
    byte[] bytes;
    int available = probe;
    if (whole && probe <= SCRATCH_MAX_BYTES) {
      // Read into this thread's reusable buffer: allocating and zeroing a fresh array for
      // every small entry costs as much as reading it. The content is copied out on decode.
      bytes = scratch(probe);
      partFile.readFully(record.offset(), bytes, 0, probe);
    } else {
      bytes = partFile.readFully(record.offset(), probe);
    }
    int headerLength = probe >= 8 ? ByteReader.getU32(bytes, 4) : 0;
    if (!whole && headerLength > probe && headerLength <= record.entryLength()) {
      bytes = partFile.readFully(record.offset(), headerLength); // a long name or attributes
      available = headerLength;
    }
    EntryHeader header =
        EntryCodec.parseHeader(file, record.offset(), bytes, 0, available, name, nameUtf8);
    if (!header.name().equals(name)) {
      return null;
    }
    if (header.entryLength() != record.entryLength()) {
      throw new CorruptArchiveException(
          file,
          record.offset(),
          "entry '"
              + name
              + "' is "
              + header.entryLength()
              + " bytes, index says "
              + record.entryLength());
    }
    return new Located(this, file, record, header, whole ? bytes : null);
  }

  String partPath(int partId) {
    return partPaths.computeIfAbsent(
        partId, id -> storage.describe(FormatConstants.partFileName(id)));
  }

  private ReadableFile part(int partId) throws IOException {
    ReadableFile file = parts.get(partId);
    if (file == null) {
      ReadableFile opened = storage.openRead(FormatConstants.partFileName(partId));
      file = parts.putIfAbsent(partId, opened);
      if (file == null) {
        file = opened;
      } else {
        opened.close();
      }
    }
    return file;
  }

  /** The raw bytes of a range of a part file (compaction copies entries verbatim). */
  byte[] readRaw(int partId, long offset, int length) throws IOException {
    return part(partId).readFully(offset, length);
  }

  /**
   * A reader of the newest generation if there is a newer one than this reader's, else this reader.
   * The caller closes the old reader when done with it.
   */
  public ArchiveReader refresh() throws IOException {
    List<StoredFile> files = storage.list();
    if (ManifestStore.newestGeneration(files) <= manifest.generation()) {
      return this;
    }
    return open(storage);
  }

  Dictionary dictionaryFor(EntryHeader header) throws IOException {
    int id = header.dictionaryId();
    if (id == 0) {
      return null;
    }
    Dictionary d = dictionaries.get(id);
    if (d == null) {
      d = loadDictionary(id);
      dictionaries.putIfAbsent(id, d);
    }
    return d;
  }

  private Dictionary loadDictionary(int id) throws IOException {
    Manifest.DictionaryRef ref =
        manifest.dictionaries().stream()
            .filter(r -> r.dictionaryId() == id)
            .findFirst()
            .orElse(null);
    String name = FormatConstants.dictionaryFileName(id);
    if (ref == null) {
      throw new CorruptArchiveException(
          storage.describe(name),
          0,
          "an entry names dictionary " + id + ", which the manifest does not list");
    }
    try (ReadableFile file = storage.openRead(name)) {
      byte[] bytes = file.readFully(0, (int) ref.fileLength());
      String described = storage.describe(name);
      FileFraming.checkHeader(described, bytes, 0, bytes.length, FormatConstants.KIND_DICTIONARY);
      FileFraming.checkFooter(described, bytes, bytes.length);
      ByteReader in = new ByteReader(described, 16, bytes, 16, bytes.length - 24);
      int storedId = in.u32("dictionary id");
      int length = in.count("dictionary length");
      if (storedId != id || length != in.remaining()) {
        throw in.corrupt("dictionary " + storedId + " of " + length + " bytes, expected id " + id);
      }
      return new Dictionary(id, in.bytes(length, "dictionary"));
    }
  }

  /**
   * A found entry: its record, parsed header and (for entries read whole) its bytes, from the
   * entry's first byte on (the array may be longer, and may be the thread's read buffer: valid only
   * until this thread's next read through the reader).
   */
  record Located(
      ArchiveReader reader, String file, IndexRecord record, EntryHeader header, byte[] bytes) {

    EntryInfo info() {
      EntryHeader h = header;
      return new EntryInfo(
          h.name(),
          false,
          h.rawLength(),
          h.storedLength(),
          h.codec(),
          h.dictionaryId(),
          h.mtimeMillis(),
          h.mode(),
          h.attributes(),
          record.partId(),
          record.offset(),
          record.entryLength());
    }

    /** Decodes and checks the content. */
    byte[] content() throws IOException {
      if (bytes == null) {
        throw new IllegalStateException(
            "entry '"
                + header.name()
                + "' is "
                + header.rawLength()
                + " bytes, too large to return whole; use openStream");
      }
      return decode(file, record.offset(), header, bytes, reader.dictionaryFor(header));
    }
  }

  /** Decompresses and checks the content of a whole entry held in {@code bytes}. */
  static byte[] decode(
      String file, long offset, EntryHeader header, byte[] bytes, Dictionary dictionary)
      throws CorruptArchiveException {
    int contentAt = header.headerLength();
    int stored = (int) header.storedLength();
    byte[] content;
    try {
      content =
          ContentDecompressor.decompress(
              header.codec(), bytes, contentAt, stored, (int) header.rawLength(), dictionary);
    } catch (IllegalArgumentException e) {
      throw new CorruptArchiveException(
          file,
          offset + contentAt,
          "entry '" + header.name() + "': content does not decompress: " + e.getMessage(),
          e);
    }
    int expected = ByteReader.getU32(bytes, contentAt + stored);
    int actual = EntryCodec.crc32c(content, 0, content.length);
    if (actual != expected) {
      throw new CorruptArchiveException(
          file,
          offset + contentAt,
          String.format(
              Locale.ROOT,
              "entry '%s': content checksum mismatch (CRC32C %08x, stored %08x)",
              header.name(),
              actual,
              expected));
    }
    return content;
  }

  @Override
  public void close() throws IOException {
    for (SegmentReader segment : segmentsNewestFirst) {
      segment.close();
    }
    for (ReadableFile file : parts.values()) {
      file.close();
    }
    parts.clear();
  }
}
