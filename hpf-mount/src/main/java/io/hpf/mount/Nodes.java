package io.hpf.mount;

import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.LiveArchive;
import io.hpf.archive.model.EntryInfo;
import io.hpf.mount.fuse.ReadOnlyFileSystem;
import java.util.HashMap;
import java.util.Map;

/**
 * The nodes the kernel knows: the ids lookups and listings gave it and it has not forgotten. A
 * directory's node is its path. A file's node is the entry it was found on, with the snapshot that
 * entry was read from, held until the kernel forgets the node: the same name found on another entry
 * (a commit replaced it) is a new node. So the kernel never serves a replaced file from the old
 * one's cached pages, and a program that has the old one open keeps reading its bytes.
 */
final class Nodes {
  /** A file or directory the kernel knows by {@link #id}. */
  static final class Node {
    final long id;

    /** The path in the mount, without the leading '/' ("" the root). */
    final String path;

    /** A file's archive, entry and snapshot; null for a directory. */
    final LiveArchive archive;

    final EntryInfo row;
    final ArchiveSnapshot snapshot;
    private long lookups;

    private Node(long id, String path, LiveArchive archive, EntryInfo row, ArchiveSnapshot s) {
      this.id = id;
      this.path = path;
      this.archive = archive;
      this.row = row;
      this.snapshot = s;
    }

    boolean directory() {
      return row == null;
    }

    /**
     * Whether this node is what {@code path} is found to be now, on {@code r} of {@code s}: the
     * same entry of the same archive (not of another archive put in its place, whose entry may lie
     * at the same place with other bytes).
     */
    private boolean is(LiveArchive a, EntryInfo r, ArchiveSnapshot s) {
      if (r == null || row == null) {
        return r == null && row == null;
      }
      return a == archive
          && s.reader().manifest().follows(snapshot.reader().manifest())
          && r.partId() == row.partId()
          && r.offset() == row.offset()
          && r.member() == row.member()
          && r.rawLength() == row.rawLength()
          && r.mode() == row.mode()
          && r.mtimeMillis() == row.mtimeMillis();
    }
  }

  private final Map<Long, Node> byId = new HashMap<>();
  private final Map<String, Node> byPath = new HashMap<>();
  private long nextId = ReadOnlyFileSystem.ROOT + 1;

  Nodes() {
    byId.put(ReadOnlyFileSystem.ROOT, new Node(ReadOnlyFileSystem.ROOT, "", null, null, null));
  }

  /** The node the kernel knows by {@code id}, or null. */
  synchronized Node get(long id) {
    return byId.get(id);
  }

  /** The node of directory {@code path}, with one more lookup. */
  Node directory(String path) {
    return lookedUp(path, null, null, null);
  }

  /**
   * The node of file {@code path} found on {@code row} of {@code snapshot} (which the caller
   * holds), with one more lookup.
   */
  Node file(String path, LiveArchive archive, ArchiveSnapshot snapshot, EntryInfo row) {
    return lookedUp(path, archive, row, snapshot);
  }

  private synchronized Node lookedUp(
      String path, LiveArchive archive, EntryInfo row, ArchiveSnapshot snapshot) {
    if (path.isEmpty()) {
      return byId.get(ReadOnlyFileSystem.ROOT); // the root is never forgotten: not counted
    }
    Node node = byPath.get(path);
    if (node == null || !node.is(archive, row, snapshot)) {
      if (snapshot != null && !snapshot.acquire()) {
        throw new IllegalStateException("a snapshot in use was closed"); // the caller holds it
      }
      node = new Node(nextId++, path, archive, row, snapshot);
      byId.put(node.id, node);
      byPath.put(path, node);
    }
    node.lookups++;
    return node;
  }

  /**
   * Takes back {@code lookups} of the kernel's lookups of node {@code id}. Returns the node if that
   * was its last (the caller releases its snapshot), else null.
   */
  synchronized Node forget(long id, long lookups) {
    Node node = byId.get(id);
    if (node == null || id == ReadOnlyFileSystem.ROOT) {
      return null;
    }
    node.lookups -= lookups;
    if (node.lookups > 0) {
      return null;
    }
    byId.remove(id);
    byPath.remove(node.path, node);
    return node;
  }

  /** How many nodes the kernel knows, the root included. */
  synchronized int size() {
    return byId.size();
  }
}
