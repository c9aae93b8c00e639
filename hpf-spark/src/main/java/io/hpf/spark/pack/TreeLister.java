package io.hpf.spark.pack;

import io.hpf.hadoop.HadoopSourceTree;
import io.hpf.pack.LocalSourceTree;
import io.hpf.pack.Packer;
import io.hpf.spark.HadoopConf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * Lists a source tree with Spark tasks: the driver walks the top of the tree breadth first until it
 * has several subtrees per task slot (or the tree ends), and tasks list the subtrees recursively,
 * each with paged listings that carry block locations (one NameNode call per page of files, none
 * per file). No single process walks the whole tree.
 */
final class TreeLister {
  /** Deepest level the driver expands; below it, subtrees go to tasks whatever their number. */
  private static final int MAX_DRIVER_DEPTH = 4;

  private TreeLister() {}

  /** The files of a tree, how many tasks listed them, and what was left out (and why). */
  record Listing(List<ListedFile> files, int tasks, List<String> skipped) {}

  static Listing list(JavaSparkContext jsc, HadoopConf conf, Path root, int subtreesWanted)
      throws IOException {
    FileSystem fs = root.getFileSystem(conf.get());
    Path qualified = HadoopSourceTree.of(fs, root).root(); // fails unless a directory
    if ("file".equals(qualified.toUri().getScheme())) {
      return listLocal(qualified);
    }
    String base = qualified.toUri().getPath();
    base = base.endsWith("/") ? base : base + "/";
    List<ListedFile> files = new ArrayList<>();
    List<String> subtrees = new ArrayList<>(List.of(qualified.toString()));
    for (int depth = 0; depth < MAX_DRIVER_DEPTH && subtrees.size() < subtreesWanted; depth++) {
      List<String> next = new ArrayList<>();
      for (String dir : subtrees) {
        // Paged, with each file's block locations: no NameNode call per file here either.
        RemoteIterator<LocatedFileStatus> it = fs.listLocatedStatus(new Path(dir));
        while (it.hasNext()) {
          LocatedFileStatus s = it.next();
          if (s.isDirectory()) {
            next.add(s.getPath().toString());
          } else if (s.isFile()) {
            files.add(listed(s, base));
          }
        }
      }
      subtrees = next;
      if (subtrees.isEmpty()) {
        break;
      }
    }
    int tasks = 0;
    if (!subtrees.isEmpty()) {
      tasks = Math.min(subtrees.size(), subtreesWanted);
      files.addAll(jsc.parallelize(subtrees, tasks).flatMap(new ListSubtree(conf, base)).collect());
    }
    return new Listing(files, tasks, List.of());
  }

  /**
   * A tree on local disk is listed on the driver by the walk {@code hpf create} uses (java.nio:
   * symbolic links skipped and listed, modes read without Hadoop's process per file), so that both
   * make the same archive of it.
   */
  private static Listing listLocal(Path root) throws IOException {
    List<ListedFile> files = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    java.nio.file.Path dir = java.nio.file.Path.of(root.toUri()).toAbsolutePath();
    LocalSourceTree.of(dir)
        .walk(
            "",
            new Packer.Options(1, false, false, false),
            skipped,
            f ->
                files.add(
                    new ListedFile(
                        f.name(),
                        java.nio.file.Path.of(f.describe()).toUri().toString(),
                        f.size(),
                        f.mtimeMillis(),
                        f.mode(),
                        new String[0])),
            () -> false);
    return new Listing(files, 0, skipped);
  }

  private static ListedFile listed(LocatedFileStatus s, String base) throws IOException {
    BlockLocation[] blocks = s.getBlockLocations();
    String[] hosts = blocks != null && blocks.length > 0 ? blocks[0].getHosts() : new String[0];
    String path = s.getPath().toUri().getPath();
    if (!path.startsWith(base)) {
      throw new IOException(s.getPath() + ": listed outside " + base);
    }
    return new ListedFile(
        path.substring(base.length()),
        s.getPath().toString(),
        s.getLen(),
        s.getModificationTime(),
        s.getPermission().toShort() & 07777,
        hosts);
  }

  /** A task: the files of one subtree, recursively. */
  private static final class ListSubtree implements FlatMapFunction<String, ListedFile> {
    private static final long serialVersionUID = 1L;

    private final HadoopConf conf;
    private final String base;

    ListSubtree(HadoopConf conf, String base) {
      this.conf = conf;
      this.base = base;
    }

    @Override
    public Iterator<ListedFile> call(String dir) throws IOException {
      Path path = new Path(dir);
      FileSystem fs = path.getFileSystem(conf.get());
      List<ListedFile> out = new ArrayList<>();
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(path, true);
      while (it.hasNext()) {
        LocatedFileStatus s = it.next();
        if (s.isFile()) {
          out.add(listed(s, base));
        }
      }
      return out.iterator();
    }
  }
}
