package io.hpf.hadoop.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hpf://file-/...}: archives on local disk, and what a damaged one gives. */
class HpfLocalArchiveTest {
  @TempDir java.nio.file.Path dir;

  private static FileSystem open(Path root) throws IOException {
    return FileSystem.newInstance(root.toUri(), new Configuration());
  }

  @Test
  void aLocalArchiveReadsLikeItsModel() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(150, 3);
    LocalStorage storage =
        TestArchives.write(
            dir.resolve("a.hpf"), model, WriterOptions.builder().codec(Codec.ZSTD).build(), 2);
    Path root = new Path(ArchivePath.hpfUri(storage.directory().toUri(), "").toString());
    assertTrue(root.toString().startsWith("hpf://file-/"), root.toString());
    try (FileSystem hpf = open(root)) {
      HpfTree.assertMatches(hpf, root, model);
    }
  }

  @Test
  void damagedContentIsAnErrorNamingTheEntryNeverWrongBytes() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>();
    model.put("ok", new byte[100]);
    byte[] big = ArchiveModel.content(new java.util.SplittableRandom(5), 3 << 20);
    model.put("big/damaged", big);
    model.put("small/damaged", ArchiveModel.content(new java.util.SplittableRandom(6), 5000));
    LocalStorage storage =
        TestArchives.write(
            dir.resolve("d.hpf"), model, WriterOptions.builder().codec(Codec.NONE).build(), 1);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      for (String name : new String[] {"big/damaged", "small/damaged"}) {
        EntryInfo e = reader.stat(name);
        java.nio.file.Path part = storage.directory().resolve(FileNames.partFileName(e.partId()));
        try (RandomAccessFile f = new RandomAccessFile(part.toFile(), "rw")) {
          long at = e.offset() + e.entryLength() / 2; // inside the content
          f.seek(at);
          int b = f.read();
          f.seek(at);
          f.write(b ^ 0x10);
        }
      }
    }
    Path root = new Path(ArchivePath.hpfUri(storage.directory().toUri(), "").toString());
    try (FileSystem hpf = open(root)) {
      for (String name : new String[] {"big/damaged", "small/damaged"}) {
        byte[] buffer = new byte[model.get(name).length];
        try (FSDataInputStream in = hpf.open(new Path(root, name))) {
          IOException e = assertThrows(IOException.class, () -> in.readFully(buffer));
          assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
          assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        }
      }
      try (FSDataInputStream in = hpf.open(new Path(root, "ok"))) {
        in.readFully(new byte[100]);
      }
      // Stored in chunks with a CRC32C each (FORMAT.md "Chunked content"): a seek into an intact
      // chunk reads right bytes; one into the damaged chunk (the middle of the raw content) fails.
      try (FSDataInputStream in = hpf.open(new Path(root, "big/damaged"))) {
        byte[] got = new byte[100];
        for (int at : new int[] {big.length - 100, 10, (3 << 20) / 4}) {
          in.readFully(at, got);
          assertArrayEquals(java.util.Arrays.copyOfRange(big, at, at + 100), got);
        }
        in.seek(big.length / 2);
        IOException e = assertThrows(IOException.class, () -> in.readFully(got));
        assertTrue(e.getMessage().contains("chunk"), e.getMessage());
      }
    }
  }
}
