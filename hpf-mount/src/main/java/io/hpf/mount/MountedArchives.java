package io.hpf.mount;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.LiveArchive;
import io.hpf.hadoop.StorageLocator;
import io.hpf.hadoop.roots.ArchiveRoot;
import io.hpf.hadoop.roots.HadoopArchiveRoot;
import io.hpf.hadoop.roots.LocalArchiveRoot;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * What a mount serves: one archive at the mount's root, or every archive under a directory, each at
 * the path of its id (its path below the directory without {@code .hpf}, as {@code hpf serve} names
 * them), the directories above them made of the ids. Archives are opened on first use and the
 * directory searched again every few seconds, so archives made later appear.
 */
final class MountedArchives implements Closeable {
  /** Where a path of the mount lies: in an archive, at {@code inside} ("/" its root). */
  record Place(LiveArchive archive, String inside) {}

  private final String location;
  private final LiveArchive single;
  private final ArchiveRoot root;
  private volatile NavigableMap<String, String> ids = new TreeMap<>();
  private volatile long idsChangedMillis = System.currentTimeMillis();
  private final Map<String, LiveArchive> open = new ConcurrentHashMap<>();

  private MountedArchives(String location, LiveArchive single, ArchiveRoot root) {
    this.location = location;
    this.single = single;
    this.root = root;
  }

  /** The archive at {@code location}, or the archives under the directory there. */
  static MountedArchives at(String location, StorageLocator locator) throws IOException {
    Storage storage = locator.openArchiveToRead(location);
    try {
      if (ArchiveFormat.newestGeneration(storage.list()) >= 0) {
        return new MountedArchives(location, LiveArchive.open(location, storage), null);
      }
    } catch (IOException | RuntimeException e) {
      storage.close();
      throw e;
    }
    storage.close(); // not an archive: a directory of them, read through its root
    ArchiveRoot root =
        LocalStorage.isLocal(location)
            ? new LocalArchiveRoot(LocalStorage.localPath(location))
            : new HadoopArchiveRoot(
                locator.fileSystem(location), new org.apache.hadoop.fs.Path(URI.create(location)));
    MountedArchives archives = new MountedArchives(location, null, root);
    archives.rescan();
    if (archives.ids.isEmpty()) {
      throw new IOException(
          location + ": not an archive, and no archive (a directory named *.hpf) below it");
    }
    return archives;
  }

  boolean single() {
    return single != null;
  }

  /** Searches the directory again; archives gone are closed. Returns the ids gone or new. */
  List<String> rescan() throws IOException {
    if (root == null) {
      return List.of();
    }
    NavigableMap<String, String> now = new TreeMap<>(root.scan());
    List<String> changed = new ArrayList<>();
    for (String id : ids.keySet()) {
      if (!ids.get(id).equals(now.get(id))) { // gone, or another directory now
        changed.add(id);
        LiveArchive gone = open.remove(id);
        if (gone != null) {
          gone.close();
        }
      }
    }
    for (String id : now.keySet()) {
      if (!ids.containsKey(id)) {
        changed.add(id);
      }
    }
    ids = now;
    if (!changed.isEmpty()) {
      idsChangedMillis = System.currentTimeMillis();
    }
    return changed;
  }

  /**
   * The archive holding {@code path} and where in it, or null for a directory of ids or nothing.
   */
  Place resolve(String path) throws IOException {
    if (single != null) {
      return new Place(single, path);
    }
    String name = ArchiveTree.nameOf(path);
    int slash = -1;
    do {
      int next = name.indexOf('/', slash + 1);
      String prefix = next < 0 ? name : name.substring(0, next);
      String archiveLocation = ids.get(prefix);
      if (archiveLocation != null) {
        return new Place(archive(prefix, archiveLocation), next < 0 ? "/" : name.substring(next));
      }
      slash = next;
    } while (slash >= 0);
    return null;
  }

  /**
   * When the archives found last changed: the time of the directories made of ids (so that the
   * kernel drops what it cached of their listings when it learns it).
   */
  long idsChangedMillis() {
    return idsChangedMillis;
  }

  /** Whether {@code path} is a directory made of ids: the root, or a prefix of some id. */
  boolean isIdDirectory(String path) {
    String name = ArchiveTree.nameOf(path);
    if (name.isEmpty()) {
      return true;
    }
    String below = ids.ceilingKey(name + "/");
    return below != null && below.startsWith(name + "/");
  }

  /** The names in a directory of ids, each once, in order. */
  void idChildren(String path, Consumer<String> sink) {
    String name = ArchiveTree.nameOf(path);
    String prefix = name.isEmpty() ? "" : name + "/";
    String last = null;
    for (String id : ids.tailMap(prefix, true).keySet()) {
      if (!id.startsWith(prefix)) {
        break;
      }
      String rest = id.substring(prefix.length());
      int slash = rest.indexOf('/');
      String child = slash < 0 ? rest : rest.substring(0, slash);
      if (!child.equals(last)) {
        sink.accept(child);
        last = child;
      }
    }
  }

  private LiveArchive archive(String id, String archiveLocation) throws IOException {
    try {
      return open.computeIfAbsent(
          id,
          key -> {
            try {
              return LiveArchive.open(archiveLocation, root.open(archiveLocation));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** The archives open now, by id ("" for a single archive). */
  Map<String, LiveArchive> openArchives() {
    return single != null ? Map.of("", single) : Map.copyOf(open);
  }

  /** What messages call the mount's source. */
  String location() {
    return location;
  }

  @Override
  public void close() throws IOException {
    if (single != null) {
      single.close();
    }
    for (LiveArchive a : open.values()) {
      a.close();
    }
  }
}
