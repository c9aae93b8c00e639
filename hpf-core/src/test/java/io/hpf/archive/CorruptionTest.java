package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.StoredFile;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damages every kind of archive file (flipped bits, truncation, deletion) and checks the two
 * promises: a read returns the right bytes or fails with an error naming the damaged file, and
 * verify reports the damaged file.
 */
class CorruptionTest {
  /** Run for zstd with a dictionary (the default where reads are remote) and LZ4 (local disk). */
  @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
  @java.lang.annotation.Target(java.lang.annotation.ElementType.METHOD)
  @ParameterizedTest
  @EnumSource(
      value = Codec.class,
      names = {"ZSTD", "LZ4"})
  @interface EachCodec {}

  @TempDir Path temp;
  private TreeMap<String, byte[]> model;
  private Path pristine;

  /** The archive every test of this class damages a copy of. */
  private void writeArchive(Codec codec) throws Exception {
    model = ArchiveModel.random(300, 99);
    // Small buckets and parts so that every kind of file exists more than once.
    WriterOptions options =
        WriterOptions.builder()
            .codec(codec)
            .dictionary(codec == Codec.ZSTD ? TestArchives.dictionary(model, 8192) : null)
            .bucketCapacity(100)
            .maxPartBytes(256 * 1024)
            .build();
    pristine = temp.resolve("pristine.hpf");
    TestArchives.write(pristine, model, options, 2);
    // What the damage is done to: entries and groups of that codec, not only raw ones.
    boolean coded = false;
    boolean grouped = false;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(pristine))) {
      for (var it = reader.list(""); it.hasNext(); ) {
        EntryInfo e = it.next();
        coded |= e.codec() == codec && !e.inGroup();
        grouped |= e.inGroup() && e.codec() == codec;
      }
    }
    assertTrue(coded && grouped, codec + " entries and groups");
  }

  private Path copy(String name) throws IOException {
    Path dir = temp.resolve(name);
    Files.createDirectories(dir);
    try (var files = Files.list(pristine)) {
      for (Path f : files.toList()) {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
    }
    return dir;
  }

  private List<String> fileNames() throws IOException {
    List<String> names = new ArrayList<>();
    for (StoredFile f : LocalStorage.open(pristine).list()) {
      names.add(f.name());
    }
    names.sort(null);
    return names;
  }

  /** Reads everything; each read is right or an error naming {@code damaged}. */
  private void assertNoWrongBytes(Path dir, String damaged) throws Exception {
    LocalStorage storage = LocalStorage.open(dir);
    ArchiveReader reader;
    try {
      reader = ArchiveReader.open(storage);
    } catch (CorruptArchiveException | FileNotFoundException e) {
      assertNamesFile(e, damaged);
      return;
    }
    try (reader) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        try {
          assertArrayEquals(e.getValue(), reader.get(e.getKey()), "wrong bytes for " + e.getKey());
        } catch (EntryNotFoundException nf) {
          fail("damage to " + damaged + " made '" + e.getKey() + "' silently not found");
        } catch (CorruptArchiveException | java.io.EOFException ce) {
          assertNamesFile(ce, damaged);
        }
      }
      try {
        var it = reader.list("");
        while (it.hasNext()) {
          String name = it.next().name();
          assertTrue(model.containsKey(name), "listed a name never added: " + name);
        }
      } catch (java.io.UncheckedIOException ue) {
        assertNamesFile(ue.getCause(), damaged);
      } catch (CorruptArchiveException ce) {
        assertNamesFile(ce, damaged);
      }
    }
  }

  private static void assertNamesFile(Throwable e, String damaged) {
    assertTrue(
        e.getMessage() != null && e.getMessage().contains(damaged),
        "error should name " + damaged + ": " + e);
  }

  private void assertVerifyReports(Path dir, String damaged) throws Exception {
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE);
    assertFalse(report.ok(), "verify found nothing wrong after damaging " + damaged);
    assertTrue(
        report.problems().stream()
            .anyMatch(p -> p.file().contains(damaged) || p.message().contains(damaged)),
        "verify should name " + damaged + ": " + report.problems());
  }

  @EachCodec
  void pristineArchiveVerifies(Codec codec) throws Exception {
    writeArchive(codec);
    assertTrue(ArchiveVerifier.verify(LocalStorage.open(pristine), ProgressListener.NONE).ok());
  }

  @EachCodec
  void flippedBitsInEveryFileAreCaught(Codec codec) throws Exception {
    writeArchive(codec);
    SplittableRandom random = new SplittableRandom(1);
    int trial = 0;
    for (String name : fileNames()) {
      long length = Files.size(pristine.resolve(name));
      // The first bytes (header) and last bytes (footer/trailer), plus random positions.
      List<Long> positions =
          new ArrayList<>(List.of(0L, 5L, 9L, 13L, length - 1, length - 5, length - 20));
      for (int i = 0; i < 12; i++) {
        positions.add(random.nextLong(length));
      }
      for (long position : positions) {
        if (position < 0 || position >= length) {
          continue;
        }
        Path dir = copy("flip-" + trial++);
        try (var channel =
            java.nio.channels.FileChannel.open(
                dir.resolve(name), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          var one = java.nio.ByteBuffer.allocate(1);
          channel.read(one, position);
          one.put(0, (byte) (one.get(0) ^ (1 << random.nextInt(8))));
          one.rewind();
          channel.write(one, position);
        }
        assertNoWrongBytes(dir, name);
        assertVerifyReports(dir, name);
      }
    }
  }

  @EachCodec
  void truncatedFilesAreCaught(Codec codec) throws Exception {
    writeArchive(codec);
    int trial = 0;
    for (String name : fileNames()) {
      long length = Files.size(pristine.resolve(name));
      for (long keep : new long[] {0, 7, length / 2, length - 1}) {
        Path dir = copy("trunc-" + trial++);
        try (var channel =
            java.nio.channels.FileChannel.open(dir.resolve(name), StandardOpenOption.WRITE)) {
          channel.truncate(keep);
        }
        assertNoWrongBytes(dir, name);
        assertVerifyReports(dir, name);
      }
    }
  }

  @EachCodec
  void missingFilesAreNamed(Codec codec) throws Exception {
    writeArchive(codec);
    int trial = 0;
    for (String name : fileNames()) {
      Path dir = copy("missing-" + trial++);
      Files.delete(dir.resolve(name));
      if (name.startsWith("manifest-")) {
        assertThrowsNaming(dir, "not an hpf archive");
        continue;
      }
      assertNoWrongBytes(dir, name);
      assertVerifyReports(dir, name);
    }
  }

  private static void assertThrowsNaming(Path dir, String text) {
    try {
      ArchiveReader.open(LocalStorage.open(dir)).close();
      fail("opened an archive without a manifest");
    } catch (IOException e) {
      assertTrue(e.getMessage().contains(text), e.getMessage());
    }
  }
}
