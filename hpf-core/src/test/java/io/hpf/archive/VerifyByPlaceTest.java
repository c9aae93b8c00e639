package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verify checks every entry by its place in its part, live or dead, whatever its size: a healthy
 * archive passes, damage anywhere is found, and names the spec forbids are reported.
 */
class VerifyByPlaceTest {
  /** Over the 16 MiB at which entries used to be checked by name instead of by place. */
  private static final int BIG = (16 << 20) + 1;

  @TempDir Path temp;

  private static byte[] random(int length, long seed) {
    byte[] bytes = new byte[length];
    new SplittableRandom(seed).nextBytes(bytes);
    return bytes;
  }

  private static WriterOptions raw() {
    return WriterOptions.builder().codec(Codec.NONE).build();
  }

  @Test
  void aDeletedBigEntryDoesNotFailVerify() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("a.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(storage, raw())) {
      for (int i = 0; i < 3; i++) {
        writer.add("big-" + i + ".bin", random(BIG, i), EntryMetadata.of(0));
      }
      writer.commit();
    }
    try (ArchiveWriter writer = ArchiveWriter.open(storage, raw())) {
      writer.delete("big-1.bin");
      writer.commit(); // a third of the bytes dead: no reclaiming compaction yet
      assertTrue(writer.manifest().deadBytes() > BIG, "the deleted entry's bytes are still there");
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    assertEquals(2, report.entriesChecked());
  }

  @Test
  void damageToTheDeadCopyOfAReplacedBigEntryIsFound() throws Exception {
    Path dir = temp.resolve("b.hpf");
    LocalStorage storage = LocalStorage.createDirectories(dir);
    EntryInfo old;
    try (ArchiveWriter writer = ArchiveWriter.create(storage, raw())) {
      writer.add("big.bin", random(BIG, 1), EntryMetadata.of(0));
      writer.add("other.bin", random(BIG, 2), EntryMetadata.of(0));
      writer.add("third.bin", random(BIG, 3), EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      old = reader.stat("big.bin");
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(
            storage, WriterOptions.builder().codec(Codec.NONE).replace(true).build())) {
      writer.add("big.bin", random(BIG, 4), EntryMetadata.of(0));
      writer.commit();
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
    long inContent = old.offset() + old.entryLength() / 2;
    Path part = dir.resolve(io.hpf.internal.format.FileNames.partFileName(old.partId()));
    try (FileChannel ch =
        FileChannel.open(part, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, inContent);
      one.put(0, (byte) (one.get(0) ^ 0x40)).rewind();
      ch.write(one, inContent);
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertFalse(report.ok(), "damage to the dead copy went unnoticed");
    assertTrue(
        report.problems().stream()
            .anyMatch(p -> p.message().contains("'big.bin'") && p.message().contains("checksum")),
        report.problems().toString());
  }

  @Test
  void namesTheSpecForbidsAreReported() throws Exception {
    String[] bad = {
      "../x",
      "/abs",
      "a/../../x",
      "C:\\x",
      "nul\0here",
      "",
      "a//b",
      "trailing/",
      "./dot",
      "a/./b",
      "..",
      "d:",
      "x/..",
      "a/."
    };
    CraftedArchive crafted = new CraftedArchive(temp.resolve("names.hpf"));
    addPlain(crafted, "fine/name.txt");
    for (String name : bad) {
      addPlain(crafted, name);
    }
    LocalStorage storage = crafted.commit();
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    for (String name : bad) {
      assertTrue(
          report.problems().stream()
              .anyMatch(p -> p.message().contains("entry name '" + name + "' is not allowed")),
          "verify did not report '" + name + "': " + report.problems());
    }
    assertFalse(
        report.problems().stream().anyMatch(p -> p.message().contains("fine/name.txt")),
        report.problems().toString());
  }

  private static void addPlain(CraftedArchive crafted, String name) throws Exception {
    crafted.addPlain(name, ("content of " + name).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A damaged index record is reported once, in its bucket: the buckets after it are still matched
   * with their own rows (a damaged record once shifted every later bucket by one, so that their
   * rows were reported as not indexed).
   */
  @Test
  void aDamagedIndexRecordIsReportedInItsBucketAlone() throws Exception {
    java.util.TreeMap<String, byte[]> model = io.hpf.testing.ArchiveModel.random(3000, 7);
    LocalStorage storage =
        io.hpf.testing.TestArchives.write(
            temp.resolve("buckets.hpf"),
            model,
            WriterOptions.builder().bucketCapacity(256).build(),
            1);
    io.hpf.internal.manifest.Manifest.SegmentRef segment;
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      segment = ((io.hpf.internal.manifest.Manifest) reader.manifest()).segments().get(0);
    }
    List<io.hpf.internal.index.BucketDescriptor> buckets = segment.directory().buckets();
    assertTrue(buckets.size() >= 4, "several buckets: " + buckets.size());
    io.hpf.internal.index.BucketDescriptor first = buckets.get(0);
    io.hpf.internal.manifest.Section section =
        io.hpf.internal.manifest.Section.bucket(segment, first);
    Path file = temp.resolve("buckets.hpf").resolve(section.fileName());
    long recordAt = section.offset() + first.metaLength(); // the bucket's first record
    try (java.nio.channels.FileChannel ch =
        java.nio.channels.FileChannel.open(
            file, java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.READ)) {
      java.nio.ByteBuffer one = java.nio.ByteBuffer.allocate(1);
      ch.read(one, recordAt + 9);
      one.put(0, (byte) (one.get(0) ^ 0x40)).rewind();
      ch.write(one, recordAt + 9);
    }
    VerifyReport report =
        ArchiveVerifier.verify(
            LocalStorage.open(temp.resolve("buckets.hpf")), ProgressListener.NONE);
    List<String> problems = report.problems().stream().map(Object::toString).toList();
    // The segment file's own checksum, and the record: nothing about the other buckets' rows.
    assertEquals(2, problems.size(), problems.toString());
    assertTrue(problems.get(0).contains("file checksum mismatch"), problems.toString());
    assertTrue(problems.get(1).contains("(bucket 0 "), problems.toString());
    assertTrue(problems.get(1).contains("index record checksum mismatch"), problems.toString());
  }
}
