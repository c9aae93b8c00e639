package io.hpf.hadoop;

import io.hpf.pack.Packer;
import io.hpf.pack.SourceTree;
import io.hpf.pack.SourceTree.SourceFile;
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
  private final String excluded; // "path/" of the archive being written inside the tree, or null

  private HadoopSourceTree(FileSystem fs, Path root, String excluded) {
    this.fs = fs;
    this.root = root;
    this.excluded = excluded;
  }

  /**
   * @throws FileNotFoundException if {@code root} is not a directory
   */
  public static HadoopSourceTree of(FileSystem fs, Path root) throws IOException {
    return checked(fs, root);
  }

  /**
   * A tree that leaves out {@code archive}, the directory of the archive being written, should it
   * lie inside the tree on the same file system (an archive never packs itself).
   *
   * @throws FileNotFoundException if {@code root} is not a directory
   */
  public static HadoopSourceTree of(FileSystem fs, Path root, Path archive) throws IOException {
    HadoopSourceTree tree = checked(fs, root);
    if (archive == null) {
      return tree;
    }
    Path target = archive.makeQualified(fs.getUri(), fs.getWorkingDirectory());
    String base = tree.root.toUri().getPath();
    base = base.endsWith("/") ? base : base + "/";
    String path = target.toUri().getPath();
    boolean inside =
        java.util.Objects.equals(target.toUri().getScheme(), tree.root.toUri().getScheme())
            && java.util.Objects.equals(
                target.toUri().getAuthority(), tree.root.toUri().getAuthority())
            && path.startsWith(base);
    return inside ? new HadoopSourceTree(fs, tree.root, path + "/") : tree;
  }

  private static HadoopSourceTree checked(FileSystem fs, Path root) throws IOException {
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
    return new HadoopSourceTree(fs, qualified, null);
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
      Packer.Options options,
      List<String> skipped,
      Consumer<SourceFile> sink,
      BooleanSupplier stop)
      throws IOException {
    String rootPath = root.toUri().getPath();
    String base = rootPath.endsWith("/") ? rootPath : rootPath + "/";
    RemoteIterator<? extends FileStatus> files = fs.listFiles(root, true);
    boolean archiveNoted = false;
    while (files.hasNext() && !stop.getAsBoolean()) {
      FileStatus status = files.next();
      String path = status.getPath().toUri().getPath();
      if (excluded != null && path.startsWith(excluded)) {
        if (!archiveNoted) {
          skipped.add(status.getPath().getParent() + ": the archive being written (not packed)");
          archiveNoted = true;
        }
        continue;
      }
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
