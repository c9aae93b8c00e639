package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FormatConstants;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Large entries are stored in chunks, each with its own CRC32C (FORMAT.md "Chunked content"): every
 * read path gives the model's bytes from any offset, and a read that touches a damaged chunk fails
 * naming it while reads of other chunks still give right bytes. Content stored in one piece (by
 * versions 1 to 6) is checked whole before a read from an offset hands out anything.
 */
class ChunkedContentTest {
  private static final int CHUNK = 64 << 10;

  @TempDir Path temp;

  /** Text-like content zstd and lz4 shrink, with some random runs so chunks differ. */
  private static byte[] content(int length, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] b = new byte[length];
    String words = "the quick brown fox jumps over the lazy dog 0123456789 ";
    for (int i = 0; i < length; i++) {
      b[i] =
          random.nextInt(50) == 0
              ? (byte) random.nextInt(256)
              : (byte) words.charAt((i * 7 + i / 13) % words.length());
    }
    return b;
  }

  private LocalStorage archive(String name, Codec codec, byte[]... contents) throws IOException {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve(name));
    try (ArchiveWriter writer =
        ArchiveWriter.create(storage, WriterOptions.builder().codec(codec).build())) {
      for (int i = 0; i < contents.length; i++) {
        writer.add("e" + i, contents[i], EntryMetadata.of(0));
      }
      writer.commit();
    }
    return storage;
  }

  private static byte[] readFrom(ArchiveReader reader, EntryInfo row, long from, int length)
      throws IOException {
    try (InputStream in = reader.openStream(row, from)) {
      return in.readNBytes(length);
    }
  }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void everyOffsetReadsTheModelsBytes(Codec codec) throws Exception {
    byte[][] model = {
      content((1 << 20) + 1, 1), content(3 * CHUNK * 16 + 12345, 2), content(1 << 20, 3)
    };
    LocalStorage storage = archive("a-" + codec + ".hpf", codec, model);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      for (int i = 0; i < model.length; i++) {
        EntryInfo row = reader.stat("e" + i);
        assertArrayEquals(model[i], reader.get("e" + i));
        try (InputStream in = reader.openStream("e" + i)) {
          assertArrayEquals(model[i], in.readAllBytes());
        }
        int n = model[i].length;
        for (long from : new long[] {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, n / 2, n - 1, n}) {
          int length = (int) Math.min(3 * CHUNK, n - from);
          assertArrayEquals(
              Arrays.copyOfRange(model[i], (int) from, (int) from + length),
              readFrom(reader, row, from, length),
              "e" + i + " from " + from);
        }
        try (InputStream in = reader.openStream(row, 10)) {
          assertEquals(2 * CHUNK, in.skip(2 * CHUNK)); // a jump past whole chunks
          assertEquals(model[i][10 + 2 * CHUNK] & 0xFF, in.read());
        }
      }
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  @Test
  void aDamagedChunkFailsEveryReadThatTouchesItAndNoOther() throws Exception {
    byte[] model = content(40 * CHUNK, 4);
    int chunk = 1 << io.hpf.internal.format.ChunkedEncoder.chunkShift(model.length);
    int chunks = model.length / chunk;
    LocalStorage storage = archive("d.hpf", Codec.ZSTD, model);
    EntryInfo row;
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      row = reader.stat("e0");
    }
    // Flip a byte of the stored bytes of the chunk in the middle: the slots say where they are.
    int damaged = chunks / 2;
    int header = (int) (row.entryLength() - row.storedLength() - 4);
    long table = row.offset() + header + row.storedLength() - chunks * 12L;
    Path part =
        storage.directory().resolve(io.hpf.internal.format.FileNames.partFileName(row.partId()));
    long start = slotEnd(part, table, damaged - 1);
    long end = slotEnd(part, table, damaged);
    flip(part, row.offset() + header + (start + end) / 2);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertArrayEquals(
          Arrays.copyOfRange(model, (damaged + 1) * chunk, (damaged + 2) * chunk),
          readFrom(reader, row, (damaged + 1) * chunk, chunk),
          "chunks after the damaged one read right");
      assertArrayEquals(
          Arrays.copyOfRange(model, 3, damaged * chunk),
          readFrom(reader, row, 3, damaged * chunk - 3));
      CorruptArchiveException e =
          assertThrows(
              CorruptArchiveException.class,
              () -> readFrom(reader, row, (long) damaged * chunk + 5, 20));
      assertTrue(e.getMessage().contains("chunk " + damaged), e.getMessage());
      assertThrows(CorruptArchiveException.class, () -> reader.get("e0"));
      try (InputStream in = reader.openStream("e0")) {
        byte[] got = in.readNBytes(damaged * chunk);
        assertArrayEquals(Arrays.copyOf(model, damaged * chunk), got);
        assertThrows(CorruptArchiveException.class, in::read);
      }
    }
    assertTrue(!ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  @Test
  void contentInOnePieceIsCheckedWholeBeforeAReadFromAnOffset() throws Exception {
    byte[] model = content(3 << 20, 5);
    byte[] stored = Zstd.compress(model);
    CRC32C crc = new CRC32C();
    crc.update(model);
    CraftedArchive crafted = new CraftedArchive(temp.resolve("old.hpf"));
    crafted.add("old", Codec.ZSTD, model.length, stored, (int) crc.getValue());
    LocalStorage storage = crafted.commit();
    EntryInfo row;
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      row = reader.stat("old");
      assertArrayEquals(
          Arrays.copyOfRange(model, 100_000, 100_020), readFrom(reader, row, 100_000, 20));
    }
    // Damage the trailer: the content still decodes, only the whole check can tell.
    Path part =
        storage.directory().resolve(io.hpf.internal.format.FileNames.partFileName(row.partId()));
    flip(part, row.offset() + row.entryLength() - 2);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertThrows(CorruptArchiveException.class, () -> readFrom(reader, row, 100_000, 20));
      assertThrows(CorruptArchiveException.class, () -> readFrom(reader, row, 0, 20));
    }
  }

  @Test
  void aCraftedChunkTableIsRefusedNotFollowed() throws Exception {
    byte[] model = content(2 * CHUNK + 7, 6);
    CRC32C crc = new CRC32C();
    crc.update(model);
    // Slots claiming chunk 1 ends before it starts: no read may go outside the chunk area.
    ByteBuffer stored =
        ByteBuffer.allocate(model.length + 3 * 12).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    stored.put(model);
    CRC32C first = new CRC32C();
    first.update(model, 0, CHUNK);
    stored.putLong(CHUNK).putInt((int) first.getValue());
    stored.putLong(5).putInt(0).putLong(model.length).putInt(0);
    CraftedArchive crafted = new CraftedArchive(temp.resolve("t.hpf"));
    crafted.add(
        "t",
        Codec.NONE,
        model.length,
        stored.array(),
        (int) crc.getValue(),
        h -> {
          h[9] = FormatConstants.ENTRY_FLAG_CHUNKED;
          h[46] = 16;
          ByteBuffer.wrap(h).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(24, stored.capacity());
        });
    try (ArchiveReader reader = ArchiveReader.open(crafted.commit())) {
      CorruptArchiveException e =
          assertThrows(CorruptArchiveException.class, () -> reader.get("t"));
      assertTrue(e.getMessage().contains("chunk 1 stored at [65536, 5)"), e.getMessage());
    }
  }

  private static long slotEnd(Path part, long table, int slot) throws IOException {
    try (FileChannel ch = FileChannel.open(part, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      ch.read(b, table + slot * 12L);
      return b.getLong(0);
    }
  }

  private static void flip(Path part, long at) throws IOException {
    try (FileChannel ch =
        FileChannel.open(part, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, at);
      one.put(0, (byte) (one.get(0) ^ 0x10)).rewind();
      ch.write(one, at);
    }
  }
}
