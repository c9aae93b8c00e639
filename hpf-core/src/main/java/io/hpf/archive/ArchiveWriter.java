package io.hpf.archive;

import io.hpf.catalog.CatalogWriter;
import io.hpf.format.ByteWriter;
import io.hpf.format.ContentCompressor;
import io.hpf.format.Dictionary;
import io.hpf.format.EntryInfo;
import io.hpf.format.EntryNames;
import io.hpf.format.FileFraming;
import io.hpf.format.FormatConstants;
import io.hpf.format.NameHash;
import io.hpf.index.IndexInput;
import io.hpf.index.IndexRecord;
import io.hpf.index.SegmentDirectory;
import io.hpf.index.SegmentIndexWriter;
import io.hpf.store.AppendableFile;
import io.hpf.store.Storage;
import io.hpf.store.StoredFile;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates an archive: entries are appended to part files, then {@link #commit()} writes the
 * segment's catalog and index and makes everything visible at once by renaming a new manifest into
 * place. Nothing is visible to readers before the commit.
 *
 * <p>{@link #add} is thread-safe and scales with the calling threads: each call borrows a part file
 * no other thread is writing, so N threads fill N part files at once. {@link #commit()} and {@link
 * #close()} must not run concurrently with {@code add}. Closing without committing deletes what was
 * written.
 */
public final class ArchiveWriter implements Closeable {
  private enum State {
    OPEN,
    COMMITTED,
    FAILED,
    CLOSED
  }

  private static final int SEGMENT_ID_FIRST = 1;
  private static final int DICTIONARY_ID_FIRST = 1;

  private final Storage storage;
  private final WriterOptions options;
  private final Dictionary dictionary;
  private final AtomicInteger nextPartId = new AtomicInteger(1);
  private final ConcurrentLinkedDeque<PartWriter> idleParts = new ConcurrentLinkedDeque<>();
  private final List<PartWriter> allParts = new ArrayList<>();
  private volatile State state = State.OPEN;

  private ArchiveWriter(Storage storage, WriterOptions options, Dictionary dictionary) {
    this.storage = storage;
    this.options = options;
    this.dictionary = dictionary;
  }

  /**
   * Starts a new archive in an empty directory.
   *
   * @throws FileAlreadyExistsException if the directory already holds files
   */
  public static ArchiveWriter create(Storage storage, WriterOptions options) throws IOException {
    List<StoredFile> existing = storage.list();
    if (!existing.isEmpty()) {
      boolean isArchive =
          existing.stream().anyMatch(f -> FormatConstants.manifestGeneration(f.name()) >= 0);
      throw new FileAlreadyExistsException(
          storage.toString()
              + (isArchive
                  ? ": already an archive"
                  : ": directory is not empty (" + existing.size() + " files)"));
    }
    Dictionary dictionary = null;
    byte[] dictionaryBytes = options.dictionary();
    ArchiveWriter writer;
    if (dictionaryBytes != null) {
      dictionary = new Dictionary(DICTIONARY_ID_FIRST, dictionaryBytes);
    }
    writer = new ArchiveWriter(storage, options, dictionary);
    if (dictionary != null) {
      writer.writeDictionary(dictionary);
    }
    return writer;
  }

  private void writeDictionary(Dictionary d) throws IOException {
    String name = FormatConstants.dictionaryFileName(d.id());
    ByteWriter out = new ByteWriter(d.sizeBytes() + 64);
    FileFraming.writeHeader(out, FormatConstants.KIND_DICTIONARY);
    out.u32(d.id()).u32(d.sizeBytes()).bytes(d.bytes());
    FileFraming.writeFooter(out);
    try (AppendableFile file = storage.create(name)) {
      file.write(out.array(), 0, out.size());
      file.sync();
    }
  }

  public WriterOptions options() {
    return options;
  }

  /** Adds an entry held in memory. Thread-safe. */
  public EntryInfo add(String name, byte[] content, EntryMetadata meta) throws IOException {
    return add(name, content, content.length, meta);
  }

  /**
   * Adds an entry whose content is {@code content[0, length)}; the array is not kept, so a caller
   * may reuse one buffer for many entries. Thread-safe.
   */
  public EntryInfo add(String name, byte[] content, int length, EntryMetadata meta)
      throws IOException {
    String normalized = EntryNames.normalize(name);
    byte[] nameUtf8 = normalized.getBytes(StandardCharsets.UTF_8);
    PartWriter part = borrowPart();
    try {
      return part.append(normalized, nameUtf8, content, length, meta);
    } finally {
      returnPart(part);
    }
  }

  /**
   * Adds an entry whose content is {@code length} bytes read from a stream, stored raw and never
   * held in memory whole (for sources of any size, 2 GiB and over). Thread-safe.
   *
   * @param source names the source in errors
   */
  public EntryInfo addStream(
      String name, InputStream in, long length, EntryMetadata meta, String source)
      throws IOException {
    String normalized = EntryNames.normalize(name);
    byte[] nameUtf8 = normalized.getBytes(StandardCharsets.UTF_8);
    PartWriter part = borrowPart();
    try {
      return part.appendStream(normalized, nameUtf8, in, length, meta, source);
    } finally {
      returnPart(part);
    }
  }

  /**
   * Adds a local file: read whole and compressed when it is at most the stream threshold, streamed
   * raw otherwise. Thread-safe.
   */
  public EntryInfo addFile(String name, Path file, EntryMetadata meta) throws IOException {
    long size = Files.size(file);
    if (size <= options.streamThresholdBytes()) {
      byte[] content = Files.readAllBytes(file);
      return add(name, content, meta);
    }
    try (InputStream in = Files.newInputStream(file)) {
      return addStream(name, in, size, meta, file.toString());
    }
  }

  private PartWriter borrowPart() throws IOException {
    if (state != State.OPEN) {
      throw new IllegalStateException(
          "writer is " + state.name().toLowerCase(java.util.Locale.ROOT));
    }
    PartWriter part = idleParts.pollFirst();
    if (part != null) {
      return part;
    }
    int partId = nextPartId.getAndIncrement();
    part = new PartWriter(storage, partId, new ContentCompressor(options.codec(), dictionary));
    synchronized (allParts) {
      allParts.add(part);
    }
    return part;
  }

  /** A full or broken part gets no more entries; the others go back to the pool. */
  private void returnPart(PartWriter part) throws IOException {
    if (part.isBroken()) {
      return;
    }
    if (part.committedLength() >= options.maxPartBytes()) {
      part.finish();
      return;
    }
    idleParts.addFirst(part);
  }

  /**
   * Writes the catalog and index of everything added, then the manifest; on return the archive is
   * readable. REQUIRES: no {@code add} running.
   *
   * @throws DuplicateEntryException naming the names added more than once; nothing is committed
   */
  public Manifest commit() throws IOException {
    if (state != State.OPEN) {
      throw new IllegalStateException(
          "writer is " + state.name().toLowerCase(java.util.Locale.ROOT));
    }
    state = State.FAILED; // until the manifest is in place
    List<Manifest.PartRef> parts = new ArrayList<>();
    List<Row> rows = new ArrayList<>();
    for (PartWriter part : allParts) {
      part.finish();
      if (part.rows().isEmpty()) {
        storage.delete(part.fileName());
        continue;
      }
      parts.add(new Manifest.PartRef(part.partId(), part.committedLength()));
      for (EntryInfo info : part.rows()) {
        rows.add(new Row(info.name().getBytes(StandardCharsets.UTF_8), info));
      }
    }
    rows.sort(Comparator.comparing(Row::nameUtf8, Arrays::compareUnsigned));
    rejectDuplicates(rows);

    String catalogName = FormatConstants.catalogFileName(SEGMENT_ID_FIRST);
    long catalogLength;
    try (AppendableFile file = storage.create(catalogName)) {
      CatalogWriter catalog = new CatalogWriter(file);
      for (Row row : rows) {
        catalog.add(row.info);
      }
      catalogLength = catalog.finish();
    }
    List<IndexInput> inputs = new ArrayList<>(rows.size());
    for (Row row : rows) {
      EntryInfo info = row.info;
      inputs.add(
          new IndexInput(
              row.nameUtf8,
              new IndexRecord(
                  NameHash.of(row.nameUtf8), info.partId(), info.offset(), info.entryLength())));
    }
    SegmentDirectory directory =
        SegmentIndexWriter.write(storage, SEGMENT_ID_FIRST, inputs, options.bucketCapacity());
    List<Manifest.DictionaryRef> dictionaries = new ArrayList<>();
    if (dictionary != null) {
      dictionaries.add(
          new Manifest.DictionaryRef(
              dictionary.id(),
              FormatConstants.FILE_HEADER_BYTES
                  + 8L
                  + dictionary.sizeBytes()
                  + FormatConstants.FOOTER_BYTES));
    }
    Manifest manifest =
        new Manifest(
            1,
            System.currentTimeMillis(),
            "create " + rows.size() + " entries",
            options.bucketCapacity(),
            dictionaries,
            parts,
            List.of(
                new Manifest.SegmentRef(
                    SEGMENT_ID_FIRST, rows.size(), 0, catalogLength, directory)));
    ManifestStore.commit(storage, manifest);
    state = State.COMMITTED;
    return manifest;
  }

  private record Row(byte[] nameUtf8, EntryInfo info) {}

  private static void rejectDuplicates(List<Row> sorted) {
    List<String> duplicates = new ArrayList<>();
    long total = 0;
    for (int i = 1; i < sorted.size(); i++) {
      if (Arrays.equals(sorted.get(i).nameUtf8, sorted.get(i - 1).nameUtf8)
          && (i == 1 || !Arrays.equals(sorted.get(i).nameUtf8, sorted.get(i - 2).nameUtf8))) {
        total++;
        if (duplicates.size() < 20) {
          duplicates.add(sorted.get(i).info.name());
        }
      }
    }
    if (total > 0) {
      throw new DuplicateEntryException(duplicates, total);
    }
  }

  /**
   * Without a commit: deletes what was written. The directory was empty when the writer was created
   * and nothing in it was ever committed, so everything in it is this writer's.
   */
  @Override
  public void close() throws IOException {
    State was = state;
    state = State.CLOSED;
    if (was == State.COMMITTED || was == State.CLOSED) {
      return;
    }
    for (PartWriter part : allParts) {
      part.closeQuietly();
    }
    for (StoredFile file : storage.list()) {
      storage.delete(file.name());
    }
  }
}
