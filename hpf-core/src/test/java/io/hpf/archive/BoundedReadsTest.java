package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lengths read from disk are bounded before they size anything: archives whose checksums are all
 * valid but whose lengths claim gigabytes give right bytes in bounded memory, or a clear error.
 */
class BoundedReadsTest {
  @TempDir Path temp;

  /** 2 GiB and a bit of zeros as one zstd frame (a few dozen KiB), and the raw CRC32C. */
  private static final long BOMB_RAW = (1L << 31) + 1000;

  private static byte[] zstdOfZeros(long length, CRC32C crc) throws IOException {
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    byte[] zeros = new byte[1 << 20];
    try (ZstdOutputStreamNoFinalizer zstd = new ZstdOutputStreamNoFinalizer(frame, 3)) {
      for (long left = length; left > 0; ) {
        int n = (int) Math.min(zeros.length, left);
        zstd.write(zeros, 0, n);
        crc.update(zeros, 0, n);
        left -= n;
      }
    }
    return frame.toByteArray();
  }

  /** Bytes this thread allocated so far, through the JVM's standard Threading MBean. */
  private static long allocatedByThisThread() throws Exception {
    return (Long)
        ManagementFactory.getPlatformMBeanServer()
            .invoke(
                new javax.management.ObjectName(ManagementFactory.THREAD_MXBEAN_NAME),
                "getThreadAllocatedBytes",
                new Object[] {Thread.currentThread().getId()},
                new String[] {"long"});
  }

  @Test
  void aZstdEntryOver2GiBStreamsInBoundedMemoryAndVerifies() throws Exception {
    CRC32C crc = new CRC32C();
    byte[] frame = zstdOfZeros(BOMB_RAW, crc);
    LocalStorage storage =
        new CraftedArchive(temp.resolve("bomb.hpf"))
            .add("zeros.bin", Codec.ZSTD, BOMB_RAW, frame, (int) crc.getValue())
            .commit();
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(BOMB_RAW, reader.stat("zeros.bin").rawLength());
      IllegalStateException tooLarge =
          assertThrows(IllegalStateException.class, () -> reader.get("zeros.bin"));
      assertTrue(tooLarge.getMessage().contains("'zeros.bin'"), tooLarge.getMessage());
      byte[] buffer = new byte[1 << 16];
      long before = allocatedByThisThread();
      long total = 0;
      long nonZero = 0;
      try (InputStream in = reader.openStream("zeros.bin")) {
        for (int n; (n = in.read(buffer)) >= 0; ) {
          total += n;
          for (int i = 0; i < n; i += 4096) {
            nonZero += buffer[i];
          }
        }
      }
      long allocated = allocatedByThisThread() - before;
      assertEquals(BOMB_RAW, total);
      assertEquals(0, nonZero);
      assertTrue(allocated < 16 << 20, "streaming 2 GiB allocated " + allocated + " bytes");
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
  }

  @Test
  void lengthsThatLieGiveErrorsNamingTheEntryNotAllocations() throws Exception {
    CRC32C crc = new CRC32C();
    byte[] tenZeros = zstdOfZeros(10, crc);
    LocalStorage storage =
        new CraftedArchive(temp.resolve("lies.hpf"))
            // lz4 content is decoded whole, so the format bounds its raw length (64 MiB)
            .add("lz4.bin", Codec.LZ4, Integer.MAX_VALUE, new byte[40], 0)
            // a zstd frame of 10 bytes whose header claims 2 GiB
            .add("zstd.bin", Codec.ZSTD, Integer.MAX_VALUE, tenZeros, (int) crc.getValue())
            .add("small-claim.bin", Codec.ZSTD, 3 << 20, tenZeros, (int) crc.getValue())
            .commit();
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      CorruptArchiveException lz4 =
          assertThrows(CorruptArchiveException.class, () -> reader.get("lz4.bin"));
      assertTrue(lz4.getMessage().contains("part-00000001.hpfp"), lz4.getMessage());
      assertThrows(IllegalStateException.class, () -> reader.get("zstd.bin"));
      for (String name : new String[] {"zstd.bin", "small-claim.bin"}) {
        CorruptArchiveException short_ =
            assertThrows(
                CorruptArchiveException.class,
                () -> {
                  try (InputStream in = reader.openStream(name)) {
                    in.transferTo(java.io.OutputStream.nullOutputStream());
                  }
                });
        assertTrue(short_.getMessage().contains("'" + name + "'"), short_.getMessage());
        assertTrue(short_.getMessage().contains("decompresses to 10 bytes"), short_.getMessage());
      }
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertFalse(report.ok());
    for (String name : new String[] {"zstd.bin", "small-claim.bin"}) {
      assertTrue(
          report.problems().stream().anyMatch(p -> p.message().contains("'" + name + "'")),
          name + " not reported: " + report.problems());
    }
  }

  @Test
  void aCatalogBlockClaiming2GiBIsCorruptionNamingTheCatalog() throws Exception {
    Path dir = temp.resolve("catalog.hpf");
    TestArchives.write(dir, ArchiveModel.random(50, 7), WriterOptions.builder().build(), 1);
    Path segment = dir.resolve("seg-00000001.hpfs");
    try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      // The catalog starts at 16 in the segment file, its first block header at 16 of the catalog:
      // codec u8, raw length u32 (the block CRC covers raw rows only).
      ch.write(
          ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, Integer.MAX_VALUE),
          16 + 17);
    }
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      UncheckedIOException e =
          assertThrows(UncheckedIOException.class, () -> reader.list("").hasNext());
      assertTrue(e.getCause() instanceof CorruptArchiveException, e.toString());
      assertTrue(
          e.getCause().getMessage().contains("seg-00000001.hpfs (catalog from byte 16)"),
          e.getMessage());
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE);
    assertTrue(
        report.problems().stream()
            .anyMatch(p -> p.message().contains("seg-00000001.hpfs (catalog from byte 16)")),
        report.problems().toString());
  }
}
