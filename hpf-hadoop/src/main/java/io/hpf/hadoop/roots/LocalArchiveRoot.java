package io.hpf.hadoop.roots;

import io.hpf.archive.ArchiveFormat;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Archives on local disk, read through {@code java.nio} (mapped files). */
public final class LocalArchiveRoot implements ArchiveRoot {
  /** How deep below the root archives are looked for. */
  private static final int MAX_DEPTH = 16;

  private final Path root;

  public LocalArchiveRoot(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  @Override
  public Map<String, String> scan() throws IOException {
    Map<String, String> found = new TreeMap<>();
    if (!Files.isDirectory(root)) {
      throw new NoSuchFileException(root.toString(), null, "no such directory");
    }
    if (isArchive()) {
      found.put(ArchiveRoot.idOfRoot(String.valueOf(root.getFileName())), root.toString());
      return found;
    }
    Deque<Path> todo = new ArrayDeque<>();
    todo.add(root);
    while (!todo.isEmpty()) {
      Path dir = todo.poll();
      try (Stream<Path> children = Files.list(dir)) {
        for (Path child : (Iterable<Path>) children::iterator) {
          String name = child.getFileName().toString();
          if (!Files.isDirectory(child) || name.startsWith(".")) {
            continue;
          }
          String relative = root.relativize(child).toString().replace('\\', '/');
          if (name.endsWith(SUFFIX) && name.length() > SUFFIX.length()) {
            found.put(ArchiveRoot.idOf(relative), child.toString());
          } else if (root.relativize(child).getNameCount() < MAX_DEPTH) {
            todo.add(child);
          }
        }
      } catch (NoSuchFileException e) {
        // removed while walking: not there now
      }
    }
    return found;
  }

  /** The root is one archive if it holds a manifest, whatever its name. */
  private boolean isArchive() throws IOException {
    try (Stream<Path> children = Files.list(root)) {
      return children.anyMatch(
          c -> ArchiveFormat.manifestGeneration(c.getFileName().toString()) >= 0);
    }
  }

  @Override
  public Storage open(String location) throws IOException {
    return LocalStorage.open(Path.of(location));
  }

  @Override
  public Storage openToWrite(String location) throws IOException {
    return LocalStorage.open(Path.of(location));
  }

  @Override
  public Storage createArchive(String id) throws IOException {
    if (isArchive()) {
      throw new IOException(root + " is one archive, not a directory of archives");
    }
    Path dir = root.resolve(id + SUFFIX);
    Files.createDirectory(dir); // fails if it exists
    return LocalStorage.open(dir);
  }

  @Override
  public void removeEmptyArchive(String location) throws IOException {
    Files.delete(Path.of(location));
  }

  @Override
  public boolean local() {
    return true;
  }

  @Override
  public String describe() {
    return root.toString();
  }
}
