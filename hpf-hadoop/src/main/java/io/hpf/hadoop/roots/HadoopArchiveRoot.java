package io.hpf.hadoop.roots;

import io.hpf.archive.ArchiveFormat;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.store.Storage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Archives on HDFS or another Hadoop file system, all through one shared file system instance (its
 * index pages cached as the HDFS reader does).
 */
public final class HadoopArchiveRoot implements ArchiveRoot {
  private static final int MAX_DEPTH = 16;

  private final FileSystem fs;
  private final Path root;

  public HadoopArchiveRoot(FileSystem fs, Path root) {
    this.fs = fs;
    this.root = fs.makeQualified(root);
  }

  @Override
  public Map<String, String> scan() throws IOException {
    Map<String, String> found = new TreeMap<>();
    FileStatus[] top = fs.listStatus(root); // a missing root is an error
    if (isArchive(top)) {
      found.put(ArchiveRoot.idOfRoot(nameOf(root)), root.toString());
      return found;
    }
    String rootPath = root.toUri().getPath();
    String base = rootPath.endsWith("/") ? rootPath : rootPath + "/";
    Deque<Path> todo = new ArrayDeque<>();
    todo.add(root);
    while (!todo.isEmpty()) {
      Path dir = todo.poll();
      FileStatus[] children;
      if (dir.equals(root)) {
        children = top; // listed once, above: each listing asks the NameNode
      } else {
        try {
          children = fs.listStatus(dir);
        } catch (FileNotFoundException e) {
          continue; // removed while walking
        }
      }
      for (FileStatus child : children) {
        String name = child.getPath().getName();
        if (!child.isDirectory() || name.startsWith(".") || name.startsWith("_")) {
          continue;
        }
        String relative = child.getPath().toUri().getPath().substring(base.length());
        if (name.endsWith(SUFFIX) && name.length() > SUFFIX.length()) {
          found.put(ArchiveRoot.idOf(relative), child.getPath().toString());
        } else if (relative.split("/").length < MAX_DEPTH) {
          todo.add(child.getPath());
        }
      }
    }
    return found;
  }

  /** A path's last component, also when it was given with a trailing slash. */
  private static String nameOf(Path path) {
    String p = path.toUri().getPath();
    int end = p.length();
    while (end > 1 && p.charAt(end - 1) == '/') {
      end--;
    }
    return p.substring(p.lastIndexOf('/', end - 1) + 1, end);
  }

  /** The root is one archive if it holds a manifest, whatever its name. */
  private static boolean isArchive(FileStatus[] children) {
    for (FileStatus child : children) {
      if (child.isFile() && ArchiveFormat.manifestGeneration(child.getPath().getName()) >= 0) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Storage open(String location) throws IOException {
    return HadoopStorage.openToRead(fs, new Path(location), HadoopStorageOptions.DEFAULTS, false);
  }

  @Override
  public Storage openToWrite(String location) throws IOException {
    return HadoopStorage.open(fs, new Path(location), HadoopStorageOptions.DEFAULTS, false);
  }

  @Override
  public Storage createArchive(String id) throws IOException {
    if (isArchive(fs.listStatus(root))) {
      throw new IOException(root + " is one archive, not a directory of archives");
    }
    Path dir = new Path(root, id + SUFFIX);
    if (fs.exists(dir)) {
      throw new java.nio.file.FileAlreadyExistsException(dir.toString());
    }
    return HadoopStorage.createDirectories(fs, dir, HadoopStorageOptions.DEFAULTS, false);
  }

  @Override
  public void removeEmptyArchive(String location) throws IOException {
    Path dir = new Path(location);
    if (fs.listStatus(dir).length > 0) {
      throw new java.nio.file.DirectoryNotEmptyException(location);
    }
    fs.delete(dir, false);
  }

  @Override
  public boolean local() {
    return false;
  }

  @Override
  public String describe() {
    return root.toString();
  }
}
