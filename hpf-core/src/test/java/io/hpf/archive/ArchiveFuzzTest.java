package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.internal.catalog.CatalogReader;
import io.hpf.internal.format.PartEntry;
import io.hpf.internal.format.PartScanner;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.index.IndexBucket;
import io.hpf.internal.manifest.ManifestCodec;
import io.hpf.testing.CountingMemoryFile;
import io.hpf.testing.MemoryArchive;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * Coverage-guided fuzzing of every parser (docs/FUZZING.md): the manifest, a part's entries (groups
 * and chunked content included), a bucket with its perfect hash, a catalog, and whole golden
 * archives with bytes changed anywhere. The property: right bytes or a {@link
 * CorruptArchiveException} (or an early end of a file, or a version this code does not know), each
 * naming the place; anything else (an unchecked exception, running out of memory under the heap the
 * run is given, a run over its time) is a finding.
 *
 * <p>The first byte of an input chooses the parser, the rest is its input. In the default suite
 * this runs on the seeds in {@code ArchiveFuzzTestInputs/} (the golden archives' files and every
 * finding kept as a regression); {@code scripts/fuzz.sh} fuzzes it ({@code JAZZER_FUZZ=1}).
 */
class ArchiveFuzzTest {
  static final int MANIFEST = 0;
  static final int PART = 1;
  static final int BUCKET = 2;
  static final int CATALOG = 3;
  static final int ARCHIVE = 4;
  static final int TARGETS = 5;

  /** The golden archives a mutated archive starts from (the first byte after the target's). */
  static final String[] GOLDEN = {
    "v7/chunked.hpf", "v7/lz4-small-groups.hpf", "v7/zstd-two-commits.hpf", "v3/none.hpf"
  };

  @FuzzTest(maxDuration = "30s")
  void everyParser(byte[] input) throws Exception {
    if (input.length < 1) {
      return;
    }
    byte[] data = Arrays.copyOfRange(input, 1, input.length);
    try {
      switch ((input[0] & 0xFF) % TARGETS) {
        case MANIFEST -> ManifestCodec.decode("fuzz.hpfm", data);
        case PART -> walkPart(data);
        case BUCKET -> readBucket(data);
        case CATALOG -> readCatalog(data);
        default -> readMutatedArchive(data);
      }
    } catch (CorruptArchiveException | EOFException e) { // an unknown version is one too
      // the one outcome besides right bytes: damage found and named
    } catch (java.io.UncheckedIOException e) {
      // from an iterator (a listing), which cannot throw the checked exception itself
      if (!(e.getCause() instanceof CorruptArchiveException)) {
        throw e;
      }
    }
  }

  /** A part of the input's bytes: every entry walked, read whole, from offsets, and checked. */
  private static void walkPart(byte[] data) throws IOException {
    byte[] part = new byte[16 + data.length];
    System.arraycopy(data, 0, part, 16, data.length);
    PartScanner scanner =
        new PartScanner(
            new CountingMemoryFile(part), "fuzz.hpfp", 16, part.length, part.length, id -> null);
    PartEntry entry;
    for (int n = 0; n < 1000 && (entry = scanner.next()) != null; n++) {
      if (!entry.inGroup()) { // a group's members come decoded and checked with their group
        scanner.reader().check(entry);
        try (InputStream in = scanner.reader().openContent(entry, entry.header().rawLength() / 2)) {
          in.transferTo(OutputStream.nullOutputStream());
        }
      }
    }
  }

  /** A bucket whose descriptor takes its key count and meta length from the bucket's header. */
  private static void readBucket(byte[] data) throws IOException {
    if (data.length < 40) {
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    int keyCount = b.getInt(16);
    int metaLength = 40 + b.getInt(32) + Math.max(0, keyCount);
    BucketDescriptor descriptor = new BucketDescriptor(0, 0, keyCount, metaLength, data.length, 0);
    IndexBucket bucket = IndexBucket.load("fuzz.hpfx", new CountingMemoryFile(data), descriptor);
    for (int slot = 0; slot < Math.min(bucket.keyCount(), 1000); slot++) {
      bucket.recordAt(slot);
    }
    bucket.find(new byte[] {'a'}, 42);
  }

  /** A catalog: the row count it is checked against comes first (u32), then the catalog. */
  private static void readCatalog(byte[] data) throws IOException {
    if (data.length < 4) {
      return;
    }
    long rows = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt(0) & 0xFFFFFFFFL;
    byte[] catalog = Arrays.copyOfRange(data, 4, data.length);
    CatalogReader reader =
        CatalogReader.open("fuzz.hpfc", new CountingMemoryFile(catalog), catalog.length, rows);
    var all = reader.list("");
    for (int n = 0; n < 100_000 && all.hasNext(); n++) {
      all.next();
    }
    reader.find("logs/2026/11/app-7.log");
  }

  /**
   * A golden archive (chosen by the first byte) with bytes changed: then (file index, offset, xor)
   * triples of 1 + 4 + 1 bytes. Every entry of its model read by name gives its bytes or an error;
   * verify and a listing end.
   */
  private static void readMutatedArchive(byte[] data) throws IOException {
    if (data.length < 1) {
      return;
    }
    String golden = GOLDEN[(data[0] & 0xFF) % GOLDEN.length];
    Map<String, byte[]> files = goldenFiles(golden);
    String[] names = files.keySet().toArray(String[]::new);
    ByteBuffer changes = ByteBuffer.wrap(data, 1, data.length - 1).order(ByteOrder.LITTLE_ENDIAN);
    while (changes.remaining() >= 6) {
      String name = names[(changes.get() & 0xFF) % names.length];
      byte[] bytes = files.get(name);
      int at = Integer.remainderUnsigned(changes.getInt(), Math.max(1, bytes.length));
      byte xor = changes.get();
      if (bytes.length > 0) {
        bytes[at] ^= xor;
      }
    }
    MemoryArchive storage = new MemoryArchive(files);
    Map<String, byte[]> model = new java.util.LinkedHashMap<>(GoldenArchives.model());
    if (golden.endsWith("chunked.hpf")) {
      model.putAll(GoldenArchives.chunkedModel());
    }
    try (ArchiveReader reader = ArchiveReader.openAlone(storage)) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        try {
          assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
        } catch (CorruptArchiveException | EntryNotFoundException damage) {
          // named, never wrong bytes
        }
      }
      var all = reader.list("");
      while (all.hasNext()) {
        all.next();
      }
    }
    ArchiveVerifier.verify(storage, ProgressListener.NONE);
  }

  /** The files of a golden archive, read once, copied for each input (which changes them). */
  private static Map<String, byte[]> goldenFiles(String golden) throws IOException {
    Map<String, byte[]> read =
        GOLDEN_FILES.computeIfAbsent(
            golden,
            g -> {
              Map<String, byte[]> files = new java.util.TreeMap<>();
              try (var list = Files.list(Path.of("src/test/resources/golden").resolve(g))) {
                for (Path p : list.toList()) {
                  files.put(p.getFileName().toString(), Files.readAllBytes(p));
                }
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
              return files;
            });
    Map<String, byte[]> copy = new java.util.TreeMap<>();
    read.forEach((name, bytes) -> copy.put(name, bytes.clone()));
    return copy;
  }

  private static final Map<String, Map<String, byte[]>> GOLDEN_FILES =
      new java.util.concurrent.ConcurrentHashMap<>();
}
