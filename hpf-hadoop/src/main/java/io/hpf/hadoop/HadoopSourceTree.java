package io.hpf.hadoop;

import io.hpf.pack.PackOptions;
import io.hpf.pack.SourceFile;
import io.hpf.pack.SourceTree;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * A directory of a Hadoop file system to pack (files already on HDFS, say): listed recursively with
 * one paged listing per directory, each file read with one open. Entry names are the paths relative
 * to the root.
 */
public final class HadoopSourceTree implements SourceTree {
  private final FileSystem fs;
  private final Path root;

  private HadoopSourceTree(FileSystem fs, Path root) {
    this.fs = fs;
    this.root = root;
  }

  /**
   * @throws FileNotFoundException if {@code root} is not a directory
   */
  public static HadoopSourceTree of(FileSystem fs, Path root) throws IOException {
    Path qualified = fs.makeQualified(root);
    FileStatus status;
    try {
      status = fs.getFileStatus(qualified);
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException(qualified + ": no such directory");
    }
    if (!status.isDirectory()) {
      throw new FileNotFoundException(qualified + ": not a directory");
    }
    return new HadoopSourceTree(fs, qualified);
  }

  /** The tree's root, qualified. */
  public Path root() {
    return root;
  }

  @Override
  public String describe() {
    return root.toString();
  }

  @Override
  public void walk(
      String prefix,
      PackOptions options,
      List<String> skipped,
      Consumer<SourceFile> sink,
      BooleanSupplier stop)
      throws IOException {
    String rootPath = root.toUri().getPath();
    String base = rootPath.endsWith("/") ? rootPath : rootPath + "/";
    RemoteIterator<? extends FileStatus> files = fs.listFiles(root, true);
    while (files.hasNext() && !stop.getAsBoolean()) {
      FileStatus status = files.next();
      String path = status.getPath().toUri().getPath();
      if (!status.isFile()) {
        skipped.add(status.getPath() + ": not a regular file");
        continue;
      }
      if (!path.startsWith(base)) {
        throw new IOException(status.getPath() + ": listed outside " + root);
      }
      sink.accept(
          new HadoopFile(
              fs,
              prefix + path.substring(base.length()),
              status.getPath(),
              status.getLen(),
              status.getModificationTime(),
              status.getPermission().toShort() & 07777));
    }
  }

  /** A file of the tree, opened through its file system. */
  private record HadoopFile(
      FileSystem fs, String name, Path path, long size, long mtimeMillis, int mode)
      implements SourceFile {
    @Override
    public String describe() {
      return path.toString();
    }

    @Override
    public InputStream open() throws IOException {
      return fs.open(path);
    }
  }
}
