package io.hpf.hadoop.fs.contract;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.fs.ArchivePath;
import io.hpf.hadoop.fs.HpfFileSystem;
import io.hpf.store.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * For Hadoop's contract tests only: {@code hpf://} with the writes their fixtures need, each a
 * commit through hpf's own writer (create adds an entry when the stream closes, delete removes
 * names, directories are implicit). What the tests then check is read through the read-only file
 * system under test.
 */
public class WritableHpfFileSystem extends HpfFileSystem {
  private interface Change {
    void apply(ArchiveWriter writer, String name) throws IOException;
  }

  private void change(Path path, Change change) throws IOException {
    ArchivePath where = ArchivePath.parse(makeQualified(path).toUri(), getDefaultUri(getConf()));
    try (Storage storage = HadoopArchives.create(where.archive(), getConf())) {
      boolean exists = !storage.list().isEmpty();
      try (ArchiveWriter w =
          exists
              ? ArchiveWriter.open(storage, WriterOptions.builder().replace(true).build())
              : ArchiveWriter.create(storage, WriterOptions.builder().build())) {
        change.apply(w, where.inner());
        w.commit();
      }
    }
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    if (!overwrite && exists(f)) {
      throw new FileAlreadyExistsException(f + " exists");
    }
    if (exists(f) && getFileStatus(f).isDirectory()) {
      throw new FileAlreadyExistsException(f + " is a directory");
    }
    ByteArrayOutputStream buffer =
        new ByteArrayOutputStream() {
          private boolean closed;

          @Override
          public void close() throws IOException {
            if (!closed) {
              closed = true;
              byte[] bytes = toByteArray();
              change(
                  f, (w, name) -> w.add(name, bytes, EntryMetadata.of(System.currentTimeMillis())));
            }
          }
        };
    return new FSDataOutputStream(buffer, statistics);
  }

  @Override
  public FSDataOutputStream createNonRecursive(
      Path f,
      FsPermission permission,
      java.util.EnumSet<org.apache.hadoop.fs.CreateFlag> flags,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    boolean overwrite = flags.contains(org.apache.hadoop.fs.CreateFlag.OVERWRITE);
    return create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    if (exists(f) && getFileStatus(f).isFile()) {
      throw new FileAlreadyExistsException(f + " is a file");
    }
    return true; // directories are implicit: a name's prefixes
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    if (!exists(f)) {
      return false;
    }
    boolean file = getFileStatus(f).isFile();
    if (!file && !recursive && listStatus(f).length > 0) {
      throw new PathIsNotEmptyDirectoryException(f.toString());
    }
    change(
        f,
        (w, name) -> {
          if (file) {
            w.delete(name);
          } else {
            w.deletePrefix(name.isEmpty() ? "" : name + "/");
          }
        });
    return true;
  }
}
