package io.hpf.archive;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.CheckedEntry;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.DictionarySource;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.EntryReader;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.NameHash;
import io.hpf.internal.format.PartEntry;
import io.hpf.internal.index.IndexRecord;
import io.hpf.internal.io.PrefetchedFile;
import io.hpf.internal.io.ReadAheadFile;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.internal.read.GenerationAccess;
import io.hpf.internal.read.MergedListing;
import io.hpf.internal.read.OpenGeneration;
import io.hpf.internal.read.PartWalk;
import io.hpf.internal.read.SegmentReader;
import io.hpf.internal.read.SharedGenerations;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

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
  private final Storage storage;
  private final OpenGeneration generation;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** A reader of {@code manifest}'s generation, sharing nothing with other readers. */
  ArchiveReader(Storage storage, Manifest manifest) {
    this(storage, new OpenGeneration(storage, manifest, null));
  }

  /** A reader of an open generation whose reference it takes over. */
  private ArchiveReader(Storage storage, OpenGeneration generation) {
    this.storage = storage;
    this.generation = generation;
  }

  /**
   * Opens the newest generation. Checks cheaply that every file the manifest names is there with
   * the right length (one listing), so a missing or truncated file is reported now, by name, rather
   * than on some later read.
   *
   * <p>Readers of an archive in one process share what they have open of its current generation
   * (files, index pages, dictionaries), kept for the next reader after the last one closes: a
   * reader opened for one get then costs about a get, not a listing and four opens. An open checks
   * that the generation is still current without listing (where the storage can: on local disk), so
   * it sees every commit made before it, as a listing would.
   */
  public static ArchiveReader open(Storage storage) throws IOException {
    return new ArchiveReader(storage, SharedGenerations.open(storage));
  }

  /**
   * Opens the newest generation as {@link #open} does, sharing nothing with this process's other
   * readers and leaving nothing open once closed: for a caller that keeps readers itself and counts
   * their memory (a server's pool of readers).
   */
  public static ArchiveReader openAlone(Storage storage) throws IOException {
    return new ArchiveReader(storage, SharedGenerations.openListed(storage, null));
  }

  /** What the generation this reader reads is: its number, commit time, contents, history. */
  public Generation manifest() {
    return generation.manifest();
  }

  /** The manifest record itself, for this package's verifier, info and imports. */
  Manifest committedManifest() {
    return generation.manifest();
  }

  public Storage storage() {
    return storage;
  }

  /** Live entries (a single-segment archive has no tombstones). */
  public long entryCount() {
    return generation.manifest().entryCount();
  }

  /**
   * The content of an entry, checked against its CRC32C.
   *
   * @throws EntryNotFoundException if there is no such entry
   * @throws IllegalStateException if it is over 64 MiB: read it with {@link #openStream}
   */
  public byte[] get(String name) throws IOException {
    Found found = locate(name, true);
    if (found == null) {
      throw new EntryNotFoundException(storage.toString(), name);
    }
    return found.content();
  }

  /** Entry metadata without reading the content, or null if there is no such entry. */
  public EntryInfo stat(String name) throws IOException {
    Found found = locate(name, false);
    return found == null ? null : found.entry().info(found.partId());
  }

  /** For the writer: whether a live entry has this name. */
  boolean exists(String name) throws IOException {
    return locate(name, false) != null;
  }

  /**
   * The content as a stream, in bounded memory whatever the entry's size and codec. Its CRC32C is
   * checked when the stream reaches its end, where a mismatch is an {@link IOException} from {@code
   * read}.
   */
  public InputStream openStream(String name) throws IOException {
    Found found = locate(name, false);
    if (found == null) {
      throw new EntryNotFoundException(storage.toString(), name);
    }
    return part(found.partId()).openContent(found.entry());
  }

  /**
   * An entry's row, content checksum and, when its raw and stored lengths are at most {@code
   * maxWhole} bytes, its checked content: one lookup and, for a small entry, one read. Null if
   * there is no such entry.
   */
  public FetchedEntry fetch(String name, int maxWhole) throws IOException {
    return fetch(name, maxWhole, maxWhole);
  }

  /**
   * As {@link #fetch(String, int)}, with content stored raw returned whole only up to {@code
   * maxWholeRaw} bytes: a server sends larger raw content from the part file without copying it.
   */
  public FetchedEntry fetch(String name, int maxWhole, int maxWholeRaw) throws IOException {
    return lookup(
        name,
        (part, record, normalized, nameUtf8) -> {
          CheckedEntry found =
              part.findChecked(
                  record.offset(),
                  record.entryLength(),
                  normalized,
                  nameUtf8,
                  maxWhole,
                  maxWholeRaw);
          return found == null
              ? null
              : new FetchedEntry(
                  found.entry().info(record.partId()), found.crc32c(), found.content());
        });
  }

  /**
   * Many entries at once, each as {@link #fetch(String, int)} returns it (null for a name no entry
   * has), in the order of {@code names}. Entries of one part are read in offset order, neighbours
   * with one read (on HDFS, one round trip per run of neighbours instead of one per name), so a
   * batch of names costs far less than as many fetches. Contents are returned whole while their
   * total stays within {@code maxTotal} bytes; past it, entries come without content.
   */
  public List<FetchedEntry> fetchAll(List<String> names, int maxWhole, long maxTotal)
      throws IOException {
    return BatchFetch.fetch(this, names, maxWhole, maxTotal);
  }

  /**
   * The content of the entry a row of this reader names (from {@link #stat} or {@link #list}) from
   * raw offset {@code from} on, as a stream in bounded memory, read at its place without looking
   * the name up again, for a reader that may stop before the end (a range, a seek): every byte it
   * hands out has been checked (see {@link EntryReader#openContent(PartEntry, long)} for what that
   * costs).
   */
  public InputStream openStream(EntryInfo row, long from) throws IOException {
    return part(row.partId()).openContent(entryAt(row), from);
  }

  private PartEntry entryAt(EntryInfo row) throws IOException {
    PartEntry entry = part(row.partId()).find(row.offset(), row.entryLength(), row.name(), null);
    if (entry == null) {
      throw new CorruptArchiveException(
          storage.describe(FileNames.partFileName(row.partId())),
          row.offset(),
          "catalog says '" + row.name() + "' is here, the entry header names another");
    }
    return entry;
  }

  /**
   * The content of the entry a row of this reader names (from {@link #stat} or {@link #list}), read
   * at its place without looking the name up again; checked as {@link #get}.
   */
  public byte[] get(EntryInfo row) throws IOException {
    byte[] content =
        part(row.partId()).findContent(row.offset(), row.entryLength(), row.name(), null);
    if (content == null) {
      throw new CorruptArchiveException(
          storage.describe(FileNames.partFileName(row.partId())),
          row.offset(),
          "catalog says '" + row.name() + "' is here, the entry header names another");
    }
    return content;
  }

  /** Entries whose names start with {@code prefix}, in name order, deleted ones left out. */
  public Iterator<EntryInfo> list(String prefix) throws IOException {
    return list(prefix, prefix);
  }

  /**
   * Entries whose names start with {@code prefix} and are not before {@code from} in byte order, in
   * name order, deleted ones left out: each segment's catalog is entered by binary search at {@code
   * from}, so skipping ahead costs one block read per segment, not a read of what is skipped.
   */
  public Iterator<EntryInfo> list(String prefix, String from) throws IOException {
    List<Iterator<EntryInfo>> sources = new ArrayList<>();
    for (SegmentReader segment : generation.segmentsNewestFirst()) {
      sources.add(segment.catalog().list(prefix, from));
    }
    return new MergedListing(sources);
  }

  /**
   * Visits every live entry with its content, in the order entries lie in the part files, read
   * through an 8 MiB read-ahead window per part (one read per window, not per entry: on HDFS a read
   * is a DataNode round trip). Each entry is checked as by {@link #get}.
   */
  public void scan(EntryVisitor visitor) throws IOException {
    scan(entriesInPartOrder(), visitor);
  }

  /** Every live entry's row, sorted by part and offset: the order of a sequential scan. */
  public List<EntryInfo> entriesInPartOrder() throws IOException {
    List<EntryInfo> rows = new ArrayList<>();
    Iterator<EntryInfo> all = list("");
    while (all.hasNext()) {
      rows.add(all.next());
    }
    rows.sort(
        Comparator.comparingInt(EntryInfo::partId)
            .thenComparingLong(EntryInfo::offset)
            .thenComparingInt(EntryInfo::member));
    return rows;
  }

  /**
   * Visits the entries of {@code rows} (rows of this reader, in part order) as {@link
   * #scan(EntryVisitor)} does. Threads may scan disjoint runs of rows at once, each with its own
   * read-ahead windows.
   */
  public void scan(List<EntryInfo> rows, EntryVisitor visitor) throws IOException {
    walk(
        rows,
        (row, part, entry) -> {
          try (InputStream content = part.openContent(entry)) {
            visitor.visit(entry.info(row.partId()), content);
          }
        });
  }

  /**
   * Opens a part of this generation for a pass over the entries at {@code offsets} (a split:
   * ascending, their entry lengths beside them, a group's members at its offset), with its own file
   * handle; the caller closes it. Each run of neighbouring entries is read with one read and the
   * rest of the part not at all, so that a pass over entries far apart reads them alone and one
   * over neighbours reads them together.
   *
   * @throws io.hpf.archive.model.CorruptArchiveException if the manifest lists no such part
   */
  public PartCursor openPart(int partId, long[] offsets, long[] entryLengths) throws IOException {
    long[] ends = new long[offsets.length];
    for (int i = 0; i < ends.length; i++) {
      ends[i] = offsets[i] + entryLengths[i];
    }
    committedLength(partId); // a part the manifest does not list is corrupt, before any open
    ReadableFile file = OpenGeneration.openPart(storage, partId, FileUse.ONCE);
    try {
      ReadableFile pass =
          new PrefetchedFile(file, false, offsets, ends, ReadAheadFile.WINDOW_BYTES);
      return new PartCursor(partId, file, entryReader(partId, pass));
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
  }

  /**
   * What compaction and recovery read of this generation beyond this API: its segments, its
   * dictionaries and walks of rows. For the writer of the archive.
   */
  GenerationAccess access() {
    return new GenerationAccess() {
      @Override
      public List<SegmentReader> segmentsNewestFirst() {
        return generation.segmentsNewestFirst();
      }

      @Override
      public boolean exists(String name) throws IOException {
        return ArchiveReader.this.exists(name);
      }

      @Override
      public DictionarySource dictionaries() {
        return ArchiveReader.this::dictionary;
      }

      @Override
      public List<EntryInfo> entriesInPartOrder() throws IOException {
        return ArchiveReader.this.entriesInPartOrder();
      }

      @Override
      public void walk(List<EntryInfo> rows, GenerationAccess.PartVisitor visitor)
          throws IOException {
        ArchiveReader.this.walk(rows, visitor);
      }
    };
  }

  /** Finds the entry of each row (rows in part order) and hands it to {@code visitor}. */
  void walk(List<EntryInfo> rows, GenerationAccess.PartVisitor visitor) throws IOException {
    PartWalk.walk(storage, generation, rows, visitor);
  }

  /** Bytes of index metadata this reader keeps in memory now. */
  public long indexMemoryBytes() {
    return generation.segmentsNewestFirst().stream().mapToLong(SegmentReader::memoryBytes).sum();
  }

  List<SegmentReader> segmentsNewestFirst() {
    return generation.segmentsNewestFirst();
  }

  /** What a lookup found: the entry's part and, as asked, its header or its checked content. */
  private record Found(int partId, PartEntry entry, byte[] content) {}

  /** Finds a name, newest segment first; null if absent or deleted. */
  private Found locate(String name, boolean content) throws IOException {
    return lookup(
        name,
        (part, record, normalized, nameUtf8) -> {
          if (content) {
            byte[] bytes =
                part.findContent(record.offset(), record.entryLength(), normalized, nameUtf8);
            return bytes == null ? null : new Found(record.partId(), null, bytes);
          }
          PartEntry entry = part.find(record.offset(), record.entryLength(), normalized, nameUtf8);
          return entry == null ? null : new Found(record.partId(), entry, null);
        });
  }

  /** What a lookup reads at the place an index record gives; null if another name is there. */
  private interface AtRecord<T> {
    T read(EntryReader part, IndexRecord record, String normalized, byte[] nameUtf8)
        throws IOException;
  }

  /**
   * Looks a name up, newest segment first, and reads at the place found; null if absent or deleted.
   * A place holding another name (the same 64-bit hash) sends the search on.
   */
  private <T> T lookup(String name, AtRecord<T> at) throws IOException {
    String normalized = EntryNames.lookupForm(name);
    if (normalized == null) {
      return null; // no entry can have a name that does not normalize
    }
    byte[] nameUtf8 = EntryNames.utf8(normalized);
    long nameHash = NameHash.of(nameUtf8);
    for (SegmentReader segment : generation.segmentsNewestFirst()) {
      IndexRecord record = segment.find(nameUtf8, nameHash);
      if (record == null) {
        continue;
      }
      if (record.isTombstone()) {
        return null;
      }
      T found = at.read(part(record.partId()), record, normalized, nameUtf8);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /** The entry reader of a part named by the manifest, opened on first use. */
  EntryReader part(int partId) throws IOException {
    return generation.part(partId);
  }

  /** The committed length of a part the manifest lists; an index naming another is corrupt. */
  private long committedLength(int partId) throws CorruptArchiveException {
    return generation.committedLength(partId);
  }

  /** An entry reader of a part over {@code file}, a view of that part's file. */
  EntryReader entryReader(int partId, ReadableFile file) throws IOException {
    return generation.entryReader(partId, file);
  }

  /** The part's file, opened once and shared by every thread of this reader. */
  ReadableFile partFile(int partId) throws IOException {
    return generation.partFile(partId);
  }

  /**
   * A reader of the archive's newest generation if it is not this reader's, else this reader: a
   * newer commit, or another archive put in this one's place (renamed over it, copied anew),
   * whatever its generation number. While no archive is there, this reader. The caller closes the
   * old reader when done with it.
   */
  public ArchiveReader refresh() throws IOException {
    List<StoredFile> files = storage.list();
    long newest = ManifestStore.newestGeneration(files);
    if (newest < 0 || (newest == manifest().generation() && generation.openedFrom(files))) {
      return this;
    }
    return new ArchiveReader(storage, SharedGenerations.openListed(storage, files, generation));
  }

  /**
   * A reader of {@code committed}, a newer generation of this archive that a writer of this process
   * committed, sharing with this reader what did not change, without listing the directory (the
   * writer holds the archive's lock: nothing else can have been put in its place); this reader if
   * it reads that generation or a newer one already.
   */
  public ArchiveReader followedBy(Generation committed) throws IOException {
    if (!(committed instanceof Manifest next) || next.generation() <= manifest().generation()) {
      return this;
    }
    return new ArchiveReader(storage, new OpenGeneration(storage, next, List.of(), generation));
  }

  /** A dictionary the manifest lists, loaded once; null if it lists none of that id. */
  Dictionary dictionary(int id) throws IOException {
    return generation.dictionary(id);
  }

  /** Closes this reader; the files of its generation close when no reader has them open. */
  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      generation.release();
    }
  }

  /** Receives entries from {@link ArchiveReader#scan}. */
  @FunctionalInterface
  public interface EntryVisitor {
    /**
     * @param content the entry's content, valid only during the call; for entries up to 1 MiB it
     *     was read and checked whole before the call, larger ones are streamed and checked at their
     *     end
     */
    void visit(EntryInfo info, InputStream content) throws IOException;
  }
}
