package io.hpf.bench.paper;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The files as they are, one file each: copied with {@code java.nio} on local disk, written one by
 * one through the file system client elsewhere (what {@code hdfs dfs -put} does). A get opens,
 * reads and closes the file.
 */
final class PlainFilesSystem implements BenchSystem {
  @Override
  public String name() {
    return "plain";
  }

  @Override
  public void create(BenchTarget target, Path staged, List<String> names) throws Exception {
    for (String name : names) {
      Path source = staged.resolve(name);
      if (target.isLocal()) {
        Path file = target.localPath().resolve(name);
        Files.createDirectories(file.getParent());
        Files.copy(source, file);
      } else {
        try (FSDataOutputStream out =
            target.fs().create(new org.apache.hadoop.fs.Path(target.path(), name), false)) {
          Files.copy(source, out);
        }
      }
    }
  }

  /** Reads every file under {@code root}, in listing order; returns the bytes read. */
  static long readAll(org.apache.hadoop.fs.FileSystem fs, org.apache.hadoop.fs.Path root)
      throws IOException {
    long bytes = 0;
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
    while (files.hasNext()) {
      try (FSDataInputStream in = fs.open(files.next().getPath())) {
        bytes += in.readAllBytes().length;
      }
    }
    return bytes;
  }

  @Override
  public Reader open(BenchTarget target) {
    return new Reader() {
      @Override
      public byte[] get(String name) throws IOException {
        if (target.isLocal()) {
          try {
            return Files.readAllBytes(target.localPath().resolve(name));
          } catch (NoSuchFileException e) {
            return null;
          }
        }
        try (FSDataInputStream in =
            target.fs().open(new org.apache.hadoop.fs.Path(target.path(), name))) {
          return in.readAllBytes();
        } catch (FileNotFoundException e) {
          return null;
        }
      }

      @Override
      public long scan() throws IOException {
        if (!target.isLocal()) {
          return readAll(target.fs(), target.path());
        }
        // java.nio, as local plain files are read: Hadoop's local listing stats every file.
        long bytes = 0;
        try (var files = Files.walk(target.localPath())) {
          for (Path file : files.filter(Files::isRegularFile).toList()) {
            bytes += Files.readAllBytes(file).length;
          }
        }
        return bytes;
      }

      @Override
      public void close() {}
    };
  }
}
