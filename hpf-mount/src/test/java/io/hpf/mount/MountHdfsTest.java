package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.MiniHdfs;
import io.hpf.testing.ModelArchive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mount of an archive on HDFS: the tree and every byte as the model has them. */
class MountHdfsTest {
  @TempDir Path temp;

  @Test
  void anArchiveOnHdfsMountsAsItsTree() throws Exception {
    Mounted.assumeFuse();
    MiniHdfs hdfs = MiniHdfs.shared();
    FileSystem fs = hdfs.fs();
    org.apache.hadoop.fs.Path path = hdfs.freshPath("logs.hpf");
    ModelArchive made =
        ModelArchive.write(
            HadoopStorage.createDirectories(fs, path, HadoopStorageOptions.DEFAULTS, false),
            200,
            17);
    String uri = fs.makeQualified(path).toString();
    try (Mounted mount = Mounted.mount(uri, temp.resolve("mnt"))) {
      TreeSet<String> listed = new TreeSet<>();
      try (Stream<Path> files = Files.walk(mount.dir)) {
        files
            .filter(Files::isRegularFile)
            .forEach(f -> listed.add(mount.dir.relativize(f).toString()));
      }
      assertEquals(new TreeSet<>(made.live().keySet()), listed);
      for (Map.Entry<String, byte[]> e : made.live().entrySet()) {
        assertArrayEquals(e.getValue(), Files.readAllBytes(mount.dir.resolve(e.getKey())));
      }
      for (String gone : made.deleted()) {
        assertFalse(Files.exists(mount.dir.resolve(gone)), gone);
      }
    }
  }

  @Test
  void programsWriteIntoAnArchiveOnHdfsKeptInAsFewFilesAsCreateMakes() throws Exception {
    Mounted.assumeFuse();
    MiniHdfs hdfs = MiniHdfs.shared();
    FileSystem fs = hdfs.fs();
    org.apache.hadoop.fs.Path path = hdfs.freshPath("written.hpf");
    String uri = fs.makeQualified(path).toString();
    Path src = temp.resolve("src");
    java.util.TreeMap<String, byte[]> tree = MountWritableTest.makeTree(src, 300);
    try (Mounted mount = Mounted.mount(uri, temp.resolve("mnt"), "--writable")) {
      MountWritableTest.sh(temp, "cp -r src mnt/cp && diff -r src mnt/cp");
    }
    org.apache.hadoop.fs.Path made = hdfs.freshPath("made.hpf");
    try (io.hpf.archive.ArchiveWriter w =
        io.hpf.archive.ArchiveWriter.create(
            HadoopStorage.createDirectories(fs, made, HadoopStorageOptions.DEFAULTS, false),
            io.hpf.archive.model.WriterOptions.builder().build())) {
      for (Map.Entry<String, byte[]> e : tree.entrySet()) {
        w.add("cp/" + e.getKey(), e.getValue(), io.hpf.archive.model.EntryMetadata.of(0));
      }
      w.commit(); // as hpf create makes it: one commit
    }
    try (io.hpf.archive.ArchiveReader written = open(fs, path);
        io.hpf.archive.ArchiveReader created = open(fs, made)) {
      MountWritableTest.assertSameTree(tree, MountWritableTest.entriesUnder(written, "cp"));
      long mountFiles = io.hpf.archive.ArchiveInfo.of(written).files();
      long createFiles = io.hpf.archive.ArchiveInfo.of(created).files();
      assertEquals(createFiles, mountFiles, "the files of the last commit: NameNode objects");
    }
  }

  private static io.hpf.archive.ArchiveReader open(FileSystem fs, org.apache.hadoop.fs.Path p)
      throws java.io.IOException {
    return io.hpf.archive.ArchiveReader.open(
        HadoopStorage.open(fs, p, HadoopStorageOptions.DEFAULTS, false));
  }
}
