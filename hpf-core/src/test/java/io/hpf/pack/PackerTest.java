package io.hpf.pack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.NameConflictException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.manifest.Manifest;
import io.hpf.pack.SourceTree.SourceFile;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveAssertions;
import io.hpf.testing.ArchiveModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PackerTest {
  @TempDir Path temp;

  private static Packer.Options options(boolean follow, boolean skipUnreadable) {
    return new Packer.Options(2, follow, skipUnreadable, true);
  }

  /** Packs {@code source} as a new archive with the default writer options. */
  private static Packer.Result pack(Path source, LocalStorage target, Packer.Options options)
      throws IOException {
    return Packer.pack(
        source, target, WriterOptions.builder().build(), options, ProgressListener.NONE);
  }

  private TreeMap<String, byte[]> writeTree(Path root, int count, long seed) throws IOException {
    TreeMap<String, byte[]> model = ArchiveModel.random(count, seed);
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      Path file = root.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue());
    }
    return model;
  }

  @Test
  void aNewArchivePacksWithLz4AndTrainsNoDictionary() throws Exception {
    Path source = temp.resolve("src");
    TreeMap<String, byte[]> model = writeTree(source, 300, 7);
    LocalStorage target = LocalStorage.createDirectories(temp.resolve("out.hpf"));
    Packer.Result result = pack(source, target, options(false, false));
    assertEquals(Codec.LZ4, result.manifest().writerSettings().codec());
    assertEquals(List.of(), ((Manifest) result.manifest()).dictionaries());
    try (ArchiveReader reader = ArchiveReader.open(target)) {
      ArchiveAssertions.assertMatchesModel(reader, model);
      int lz4 = 0;
      for (String name : model.keySet()) {
        Codec codec = reader.stat(name).codec();
        assertTrue(codec == Codec.LZ4 || codec == Codec.NONE, name + " is " + codec);
        lz4 += codec == Codec.LZ4 ? 1 : 0;
      }
      assertTrue(lz4 > 0, "some entries shrink with lz4");
    }
  }

  @Test
  void packsATreeWithDictionaryAndProgress() throws Exception {
    Path source = temp.resolve("src");
    TreeMap<String, byte[]> model = writeTree(source, 800, 1);
    Files.setLastModifiedTime(
        source.resolve(model.firstKey()),
        java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_000L));
    AtomicLong lastDone = new AtomicLong();
    LocalStorage target = LocalStorage.createDirectories(temp.resolve("out.hpf"));
    Packer.Result result =
        Packer.pack(
            source,
            target,
            WriterOptions.builder().codec(Codec.ZSTD).build(),
            options(false, false),
            // Workers report concurrently, so reports may arrive out of order: keep the most.
            (done, bytes, total, totalBytes) -> lastDone.accumulateAndGet(done, Math::max));
    assertEquals(model.size(), result.files());
    assertEquals(model.size(), lastDone.get());
    assertEquals(
        1, ((Manifest) result.manifest()).dictionaries().size(), "zstd dictionary trained");
    try (ArchiveReader reader = ArchiveReader.open(target)) {
      ArchiveAssertions.assertMatchesModel(reader, model);
      EntryInfo first = reader.stat(model.firstKey());
      assertEquals(1_600_000_000_000L, first.mtimeMillis());
      assertEquals(
          Files.getAttribute(source.resolve(model.firstKey()), "unix:mode"),
          first.mode()
              | (Integer) Files.getAttribute(source.resolve(model.firstKey()), "unix:mode")
                  & ~07777);
    }
  }

  @Test
  void emptyDirectoryMakesAnEmptyArchive() throws Exception {
    Path source = Files.createDirectories(temp.resolve("empty"));
    LocalStorage target = LocalStorage.createDirectories(temp.resolve("e.hpf"));
    Packer.Result result = pack(source, target, options(false, false));
    assertEquals(0, result.files());
    try (ArchiveReader reader = ArchiveReader.open(target)) {
      assertEquals(0, reader.entryCount());
      assertFalse(reader.list("").hasNext());
      assertNull(reader.stat("x"));
    }
    assertTrue(ArchiveVerifier.verify(target, ProgressListener.NONE).ok());
  }

  @Test
  void symlinksAreSkippedOrFollowedByFlag() throws Exception {
    Path source = temp.resolve("links");
    Files.createDirectories(source.resolve("real"));
    Files.write(source.resolve("real/file"), new byte[] {1, 2, 3});
    Files.createSymbolicLink(source.resolve("link-to-file"), source.resolve("real/file"));
    Files.createSymbolicLink(source.resolve("link-to-dir"), source.resolve("real"));

    LocalStorage skip = LocalStorage.createDirectories(temp.resolve("skip.hpf"));
    Packer.Result skipped = pack(source, skip, options(false, false));
    assertEquals(1, skipped.files());
    assertEquals(2, skipped.skipped().size(), skipped.skipped().toString());

    LocalStorage follow = LocalStorage.createDirectories(temp.resolve("follow.hpf"));
    pack(source, follow, options(true, false));
    try (ArchiveReader reader = ArchiveReader.open(follow)) {
      assertEquals(3, reader.entryCount());
      assertArrayEquals(new byte[] {1, 2, 3}, reader.get("link-to-dir/file"));
      assertArrayEquals(new byte[] {1, 2, 3}, reader.get("link-to-file"));
    }
  }

  @Test
  void symlinkLoopIsAnErrorNamingIt() throws Exception {
    Path source = temp.resolve("loop");
    Files.createDirectories(source.resolve("d"));
    Files.createSymbolicLink(source.resolve("d/back"), source);
    LocalStorage target = LocalStorage.createDirectories(temp.resolve("loop.hpf"));
    IOException e = packFails(source, target, options(true, false));
    assertTrue(e.getMessage().contains("loop"), e.getMessage());
  }

  /** Packs and expects the failure, which it returns for its message to be checked. */
  private static IOException packFails(Path source, LocalStorage target, Packer.Options options) {
    return assertThrows(IOException.class, () -> pack(source, target, options));
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /**
   * A file whose read fails. Root ignores permission bits, so as root the file is a symlink to
   * /proc/self/mem, whose read at offset 0 fails with EIO (the packer must follow links then).
   */
  private static void makeUnreadable(Path file) throws IOException {
    if (isRoot()) {
      Files.createSymbolicLink(file, Path.of("/proc/self/mem"));
    } else {
      Files.write(file, new byte[] {1});
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
    }
  }

  @Test
  void unreadableFilesFailNamingThemOrAreListedWithTheFlag() throws Exception {
    Path source = Files.createDirectories(temp.resolve("unreadable"));
    Files.write(source.resolve("ok"), new byte[] {9});
    makeUnreadable(source.resolve("secret"));
    LocalStorage failing = LocalStorage.createDirectories(temp.resolve("fail.hpf"));
    IOException e = packFails(source, failing, options(isRoot(), false));
    assertTrue(e.getMessage().contains("secret"), e.getMessage());
    assertTrue(e.getMessage().contains("--skip-unreadable"), e.getMessage());
    assertTrue(
        LocalStorage.open(failing.directory()).list().isEmpty(), "failed create leaves nothing");

    LocalStorage skipping = LocalStorage.createDirectories(temp.resolve("skip.hpf"));
    Packer.Result result = pack(source, skipping, options(isRoot(), true));
    assertEquals(1, result.files());
    assertTrue(
        result.skipped().stream().anyMatch(s -> s.contains("secret")), result.skipped().toString());
    try (ArchiveReader reader = ArchiveReader.open(skipping)) {
      assertArrayEquals(new byte[] {9}, reader.get("ok"));
      assertNull(reader.stat("secret"));
    }
  }

  @Test
  void aFailingWorkerNeverStrandsTheOthers() throws Exception {
    // One unreadable file among many, four workers: whichever worker fails, and whenever,
    // the create ends with the error instead of waiting forever.
    Path source = Files.createDirectories(temp.resolve("many"));
    for (int i = 0; i < 300; i++) {
      Files.write(source.resolve("f" + i), new byte[] {(byte) i});
    }
    makeUnreadable(source.resolve("f150-unreadable"));
    for (int trial = 0; trial < 20; trial++) {
      LocalStorage target = LocalStorage.createDirectories(temp.resolve("many" + trial + ".hpf"));
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  Packer.pack(
                      source,
                      target,
                      WriterOptions.builder().codec(Codec.NONE).build(),
                      new Packer.Options(4, isRoot(), false, false),
                      ProgressListener.NONE));
      assertTrue(e.getMessage().contains("f150-unreadable"), e.getMessage());
    }
  }

  @Test
  void invalidUtf8SourceNameIsReportedNotMangled() throws Exception {
    Path source = Files.createDirectories(temp.resolve("badname"));
    // A name with the byte 0xFF; under a UTF-8 file-name encoding Java cannot create it.
    Process p =
        new ProcessBuilder(
                "sh", "-c", "printf x > \"$1\"/$(printf 'bad\\377')", "sh", source.toString())
            .start();
    assertEquals(0, p.waitFor());
    LocalStorage target = LocalStorage.createDirectories(temp.resolve("bad.hpf"));
    IOException e = packFails(source, target, options(false, false));
    assertTrue(e.getMessage().contains("not valid UTF-8"), e.getMessage());
  }

  @Test
  void duplicateNamesInOneCommitAreNamed() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("dup.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      writer.add("a/b", new byte[] {1}, EntryMetadata.of(0));
      writer.add("c", new byte[] {2}, EntryMetadata.of(0));
      writer.add("a//b", new byte[] {3}, EntryMetadata.of(0));
      NameConflictException e = assertThrows(NameConflictException.class, writer::commit);
      assertEquals(List.of("a/b"), e.names());
    }
    assertTrue(storage.list().isEmpty(), "nothing left of the failed create");
  }

  @Test
  void createRefusesANonEmptyDirectory() throws Exception {
    Path dir = Files.createDirectories(temp.resolve("full"));
    Files.write(dir.resolve("x"), new byte[1]);
    assertThrows(
        java.nio.file.FileAlreadyExistsException.class,
        () -> ArchiveWriter.create(LocalStorage.open(dir), WriterOptions.builder().build()));
  }

  @Test
  void fileOverTwoGibibytesRoundTrips() throws Exception {
    Path source = Files.createDirectories(temp.resolve("huge"));
    Path big = source.resolve("big.bin");
    long size = (2L << 30) + 12_345;
    // A sparse file with a few non-zero bytes (start, across 2 GiB, end), cheap to make.
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      f.setLength(size);
      for (long at : new long[] {0, (2L << 30) - 3, size - 1}) {
        f.seek(at);
        f.write(new byte[] {7, 8, 9}, 0, (int) Math.min(3, size - at));
      }
    }
    Files.write(
        source.resolve("small.txt"), "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    LocalStorage target = LocalStorage.createDirectories(temp.resolve("huge.hpf"));
    Packer.pack(
        source,
        target,
        WriterOptions.builder().codec(Codec.LZ4).build(),
        options(false, false),
        ProgressListener.NONE);
    try (ArchiveReader reader = ArchiveReader.open(target)) {
      assertEquals(size, reader.stat("big.bin").rawLength());
      assertThrows(IllegalStateException.class, () -> reader.get("big.bin"));
      assertEquals(crcOfFile(big), crcOfStream(reader.openStream("big.bin")));
      assertArrayEquals(
          "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8), reader.get("small.txt"));
    }
  }

  private static long crcOfFile(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return crcOfStream(in);
    }
  }

  private static long crcOfStream(InputStream stream) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[1 << 20];
    try (InputStream in = stream) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        crc.update(buffer, 0, n);
      }
    }
    return crc.getValue();
  }

  @Test
  void randomContentIsStoredRawNotExpanded() throws Exception {
    Path source = Files.createDirectories(temp.resolve("random"));
    byte[] noise = new byte[10_000];
    new SplittableRandom(4).nextBytes(noise);
    Files.write(source.resolve("noise"), noise);
    LocalStorage target = LocalStorage.createDirectories(temp.resolve("r.hpf"));
    pack(source, target, options(false, false));
    try (ArchiveReader reader = ArchiveReader.open(target)) {
      assertEquals(Codec.NONE, reader.stat("noise").codec());
      assertEquals(noise.length, reader.stat("noise").storedLength());
    }
  }

  @Test
  void tooFewSamplesTrainNoDictionary() throws Exception {
    assertEquals(null, DictionaryTrainer.train(List.of()));
  }

  /** Samples come from the whole sorted list, not from its first files until the budget ends. */
  @Test
  void samplesAreSpreadOverTheWholeTree() throws Exception {
    List<Integer> opened = java.util.Collections.synchronizedList(new ArrayList<>());
    List<SourceFile> files = new ArrayList<>();
    int count = 4000;
    int size = 8192; // 32 MB listed: eight times the sample budget
    for (int i = 0; i < count; i++) {
      int index = i;
      byte[] content =
          ("file " + i + " " + "the quick brown fox jumps over the lazy dog ".repeat(200))
              .substring(0, size)
              .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      files.add(
          new SourceFile() {
            @Override
            public String name() {
              return String.format(java.util.Locale.ROOT, "f%05d", index);
            }

            @Override
            public long size() {
              return size;
            }

            @Override
            public long mtimeMillis() {
              return 0;
            }

            @Override
            public int mode() {
              return 0644;
            }

            @Override
            public String describe() {
              return name();
            }

            @Override
            public java.io.InputStream open() {
              opened.add(index);
              return new java.io.ByteArrayInputStream(content);
            }
          });
    }
    DictionaryTrainer.train(files); // whether zstd makes a dictionary of these is not the point
    int budgetFiles = DictionaryTrainer.SAMPLE_BUDGET_BYTES / size;
    assertTrue(opened.size() >= budgetFiles * 9 / 10, "samples: " + opened.size());
    assertTrue(
        java.util.Collections.max(opened) >= count * 9 / 10,
        "the last sample is file " + java.util.Collections.max(opened) + " of " + count);
  }
}
