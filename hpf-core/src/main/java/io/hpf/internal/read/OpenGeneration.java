package io.hpf.internal.read;

import io.hpf.archive.model.ArchiveReplacedException;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.EntryReader;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.Section;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What is open of one generation of an archive: its manifest, its segments (with the index pages
 * they loaded), its part files and its dictionaries, each opened on first use. Every reader of the
 * generation shares it: the readers opened on it (an {@code ArchiveReader} is a handle) and the
 * process's cache of current generations ({@link SharedGenerations}). It is counted, and the last
 * release closes its files.
 *
 * <p>A newer generation is made from an older one by sharing what did not change (Lucene's {@code
 * openIfChanged}): segments and dictionaries never change once committed, and a part file whose
 * committed length is the same holds the same bytes.
 *
 * <p>A generation reads only the files it was opened on: where the listing it was opened from gives
 * each file's version (local disk: inode, time and length; HDFS: the file id), a part or segment
 * file opened later is checked to be that file (on HDFS when its length is not the one listed:
 * asking costs a NameNode call), so an archive replaced under the same path (a rename, an rsync of
 * a new copy) is not read through an older generation's index. Thread-safe.
 */
public final class OpenGeneration {
  private final Storage storage;
  private final Manifest manifest;
  private final List<SegmentReader> segmentsNewestFirst;
  private final Map<Integer, Long> committedLengths = new HashMap<>();
  private final ConcurrentHashMap<Integer, EntryReader> parts = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, SharedFile> partFiles = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, Dictionary> dictionaries = new ConcurrentHashMap<>();
  private final AtomicInteger references = new AtomicInteger(1);

  /** The files with versions as listed when the generation was opened; empty if not listed. */
  private final Map<String, StoredFile> listedFiles = new HashMap<>();

  private volatile boolean replaced;

  /**
   * Opens {@code manifest}'s generation, sharing with {@code previous} (an open older generation of
   * the same archive, or null) what has not changed; the caller holds the one reference.
   */
  public OpenGeneration(Storage storage, Manifest manifest, OpenGeneration previous) {
    this(storage, manifest, List.of(), previous);
  }

  /**
   * Opens {@code manifest}'s generation as found in {@code listing} (whose file versions it keeps,
   * to read only those files), sharing with {@code previous} what has not changed.
   */
  public OpenGeneration(
      Storage storage, Manifest manifest, List<StoredFile> listing, OpenGeneration previous) {
    this.storage = storage;
    this.manifest = manifest;
    for (StoredFile f : listing) {
      if (f.version() != null) {
        listedFiles.put(f.name(), f);
      }
    }
    Map<Integer, SegmentReader> old = new HashMap<>();
    if (previous != null) {
      previous.segmentsNewestFirst.forEach(s -> old.put(s.ref().segmentId(), s));
    }
    List<SegmentReader> segments = new ArrayList<>();
    for (Manifest.SegmentRef ref : manifest.segments()) {
      SegmentReader kept = old.get(ref.segmentId());
      segments.add(
          0, kept != null ? kept.retain() : new SegmentReader(storage, ref, this::openListed));
    }
    this.segmentsNewestFirst = segments;
    for (Generation.Part part : manifest.parts()) {
      committedLengths.put(part.partId(), part.committedLength());
    }
    if (previous != null) {
      previous.partFiles.forEach(
          (partId, file) -> {
            if (committedLengths.containsKey(partId)
                && previous.committedLengths.get(partId).equals(committedLengths.get(partId))) {
              partFiles.put(partId, file.retain());
            }
          });
      previous.dictionaries.forEach(
          (id, d) -> {
            if (manifest.dictionaries().stream().anyMatch(r -> r.dictionaryId() == id)) {
              dictionaries.put(id, d);
            }
          });
    }
  }

  public Manifest manifest() {
    return manifest;
  }

  public List<SegmentReader> segmentsNewestFirst() {
    return segmentsNewestFirst;
  }

  /** One more reader of this generation, or null if its last reader has closed it already. */
  public OpenGeneration tryRetain() {
    for (int n = references.get(); n > 0; n = references.get()) {
      if (references.compareAndSet(n, n + 1)) {
        return this;
      }
    }
    return null;
  }

  /** A reader is done with this generation; the last one closes its files. */
  public void release() throws IOException {
    if (references.decrementAndGet() != 0) {
      return;
    }
    IOException failed = null;
    for (SegmentReader segment : segmentsNewestFirst) {
      segment.close();
    }
    for (SharedFile file : partFiles.values()) {
      try {
        file.close();
      } catch (IOException e) {
        failed = failed == null ? e : failed;
      }
    }
    partFiles.clear();
    parts.clear();
    if (failed != null) {
      throw failed;
    }
  }

  /** The committed length of a part the manifest lists; an index naming another is corrupt. */
  public long committedLength(int partId) throws CorruptArchiveException {
    Long committed = committedLengths.get(partId);
    if (committed == null) {
      throw new CorruptArchiveException(
          storage.describe(FileNames.partFileName(partId)),
          0,
          "the index names part " + partId + ", which is not listed");
    }
    return committed;
  }

  /** The entry reader of a part named by the manifest, opened on first use. */
  public EntryReader part(int partId) throws IOException {
    EntryReader reader = parts.get(partId);
    if (reader != null) {
      return reader;
    }
    reader = entryReader(partId, partFile(partId));
    EntryReader raced = parts.putIfAbsent(partId, reader);
    return raced == null ? reader : raced;
  }

  /**
   * An entry reader of a part over {@code file}, a view of that part's file. A file shorter than
   * the part's committed length is a damaged part, not a damaged archive: its entries before the
   * cut read, those past it are reported lost.
   */
  public EntryReader entryReader(int partId, ReadableFile file) throws IOException {
    long committed = committedLength(partId);
    long length = file.length();
    return new EntryReader(
        file,
        storage.describe(FileNames.partFileName(partId)),
        committed,
        length < committed ? length : Long.MAX_VALUE,
        this::dictionary);
  }

  /**
   * Opens a part file the manifest lists; one that is missing is a damaged part (its entries are
   * lost), told as such.
   */
  public static ReadableFile openPart(Storage storage, int partId, FileUse use) throws IOException {
    String name = FileNames.partFileName(partId);
    try {
      return storage.openRead(name, use);
    } catch (java.io.FileNotFoundException e) {
      throw new CorruptArchiveException(
          storage.describe(name), 0, "the part file is missing (the manifest lists it)", e);
    }
  }

  /**
   * Whether the manifest file listed in {@code listing} is the one this generation was opened from;
   * true where either listing does not tell.
   */
  public boolean openedFrom(List<StoredFile> listing) {
    String name = FileNames.manifestFileName(manifest.generation());
    StoredFile opened = listedFiles.get(name);
    if (opened == null) {
      return true;
    }
    for (StoredFile f : listing) {
      if (f.name().equals(name)) {
        return f.version() == null || f.version().equals(opened.version());
      }
    }
    return false;
  }

  /** The part's file, opened once and shared by every thread and reader of this generation. */
  public ReadableFile partFile(int partId) throws IOException {
    committedLength(partId); // an index naming a part the manifest does not list is corrupt
    SharedFile file = partFiles.get(partId);
    if (file == null) {
      SharedFile opened = new SharedFile(openListed(partId));
      file = partFiles.putIfAbsent(partId, opened);
      if (file == null) {
        file = opened;
      } else {
        opened.close();
      }
    }
    return file.file();
  }

  /**
   * Opens a part file, checking that it is the file listed when the generation was opened: asked
   * after the open, so that a file replaced before the open is seen (the open file's own inode
   * cannot be given to another file while it is open). Segment files are opened the same way.
   */
  private ReadableFile openListed(int partId) throws IOException {
    return checkListed(FileNames.partFileName(partId), openPart(storage, partId, FileUse.CONTENT));
  }

  /** Opens a file of the generation (see {@link #checkListed}). */
  private ReadableFile openListed(String name, FileUse use) throws IOException {
    return checkListed(name, storage.openRead(name, use));
  }

  /** {@code file}, opened as {@code name}, if it is the file listed then; else closes it. */
  private ReadableFile checkListed(String name, ReadableFile file) throws IOException {
    StoredFile listed = listedFiles.get(name);
    if (listed == null) {
      return file;
    }
    Object now;
    try {
      // Where asking costs a round trip (HDFS: a NameNode call, as much as the open), asked only
      // when the file opened is not of the length listed; otherwise the entries' own checks (name,
      // length, CRC32C) are what tells another archive's file of the same length.
      if (!storage.statCheaperThanList() && file.length() == listed.lengthBytes()) {
        return file;
      }
      now = storage.version(name);
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
    // A file changed in place (damaged, cut short) is still the file listed: its entries' checks
    // and the cut tell what it lost. Another file put in its place is another archive's.
    if (now == null || !storage.sameFile(listed.version(), now)) {
      file.close();
      replaced = true;
      throw new ArchiveReplacedException(
          storage.describe(name)
              + ": another file now than when generation "
              + manifest.generation()
              + " was opened (the archive was replaced under this reader): open it again");
    }
    return file;
  }

  /**
   * Whether a file of this generation was found to be another file now (the archive was replaced
   * under its path): a process's cache of current generations then opens the archive anew.
   */
  public boolean replaced() {
    return replaced;
  }

  /** A dictionary the manifest lists, loaded once; null if it lists none of that id. */
  public Dictionary dictionary(int id) throws IOException {
    Dictionary d = dictionaries.get(id);
    if (d != null) {
      return d;
    }
    Manifest.DictionaryRef ref =
        manifest.dictionaries().stream()
            .filter(r -> r.dictionaryId() == id)
            .findFirst()
            .orElse(null);
    if (ref == null) {
      return null;
    }
    d = readDictionary(storage, ref);
    Dictionary raced = dictionaries.putIfAbsent(id, d);
    return raced == null ? d : raced;
  }

  /** An open part file shared by the generations that have it; closed by the last. */
  private static final class SharedFile {
    private final ReadableFile file;
    private final AtomicInteger references = new AtomicInteger(1);

    SharedFile(ReadableFile file) {
      this.file = file;
    }

    ReadableFile file() {
      return file;
    }

    SharedFile retain() {
      references.incrementAndGet();
      return this;
    }

    void close() throws IOException {
      if (references.decrementAndGet() == 0) {
        file.close();
      }
    }
  }

  /** Reads and checks a dictionary the manifest lists. */
  public static Dictionary readDictionary(Storage storage, Manifest.DictionaryRef ref)
      throws IOException {
    Section section = Section.dictionary(ref);
    try (ReadableFile file = section.open(storage, FileUse.INDEX)) {
      return Dictionary.readFile(section.describe(storage), file, ref.dictionaryId(), ref.length());
    }
  }
}
