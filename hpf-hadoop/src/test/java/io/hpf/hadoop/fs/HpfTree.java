package io.hpf.hadoop.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Checks an archive seen through {@code hpf://} against its model: tree, lengths and bytes. */
public final class HpfTree {
  private HpfTree() {}

  /** The directories a set of entry names implies ("a/b/c" implies "a" and "a/b"). */
  public static TreeSet<String> directories(Iterable<String> names) {
    TreeSet<String> dirs = new TreeSet<>();
    for (String name : names) {
      for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
        dirs.add(name.substring(0, i));
      }
    }
    return dirs;
  }

  /** Files and directories under {@code root}, walked with listStatus, by name inside the root. */
  public static TreeMap<String, FileStatus> walk(FileSystem fs, Path root) throws IOException {
    TreeMap<String, FileStatus> out = new TreeMap<>();
    String base = fs.makeQualified(root).toUri().getPath();
    walk(fs, root, base, out);
    return out;
  }

  private static void walk(FileSystem fs, Path dir, String base, Map<String, FileStatus> out)
      throws IOException {
    for (FileStatus s : fs.listStatus(dir)) {
      String name = s.getPath().toUri().getPath().substring(base.length() + 1);
      out.put(name, s);
      if (s.isDirectory()) {
        walk(fs, s.getPath(), base, out);
      }
    }
  }

  /** The tree under {@code root} is exactly the model's: every entry, every implied directory. */
  public static void assertMatches(FileSystem fs, Path root, SortedMap<String, byte[]> model)
      throws IOException {
    assertMatches(fs, root, model, Integer.MAX_VALUE);
  }

  /**
   * As {@link #assertMatches(FileSystem, Path, SortedMap)}, reading the content of about {@code
   * contentChecks} entries spread evenly over the model (every entry's length is still checked).
   */
  public static void assertMatches(
      FileSystem fs, Path root, SortedMap<String, byte[]> model, int contentChecks)
      throws IOException {
    int stride = Math.max(1, model.size() / Math.max(1, contentChecks));
    int index = 0;
    TreeMap<String, FileStatus> seen = walk(fs, root);
    TreeSet<String> expected = new TreeSet<>(model.keySet());
    expected.addAll(directories(model.keySet()));
    assertEquals(expected, seen.keySet(), "the tree under " + root);
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      FileStatus s = seen.get(e.getKey());
      assertTrue(s.isFile(), e.getKey());
      assertEquals(e.getValue().length, s.getLen(), e.getKey());
      if (index++ % stride != 0) {
        continue;
      }
      byte[] read = new byte[e.getValue().length];
      try (FSDataInputStream in = fs.open(s.getPath())) {
        in.readFully(read);
        assertEquals(-1, in.read(), "end of " + e.getKey());
      }
      assertArrayEquals(e.getValue(), read, e.getKey());
    }
  }
}
