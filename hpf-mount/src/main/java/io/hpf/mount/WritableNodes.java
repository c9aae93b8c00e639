package io.hpf.mount;

import io.hpf.mount.fuse.ReadOnlyFileSystem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes the kernel knows in a writable mount: a node is a name, and moves with it when it is
 * renamed (and with its directory). A name deleted or replaced leaves its node behind, detached:
 * the same name made again is a new node, so the kernel never takes a new file for one it still
 * holds open. Ids are never reused.
 */
final class WritableNodes {
  static final class Node {
    final long id;
    private String path; // null once detached
    private long lookups;

    /**
     * What a file's node was when its name was deleted or replaced: a program that looked it up
     * before may still open it, as on any file system. Guarded by the overlay's lock.
     */
    Orphan orphan;

    private Node(long id, String path) {
      this.id = id;
      this.path = path;
    }

    /** The name it is, "" the root; null if it was deleted or replaced. */
    synchronized String path() {
      return path;
    }
  }

  /** A detached file: staged (one of its handles counted for it), or committed on a snapshot. */
  record Orphan(
      Pending.File file,
      io.hpf.archive.ArchiveSnapshot snapshot,
      io.hpf.archive.model.EntryInfo row) {}

  private final Map<Long, Node> byId = new HashMap<>();
  private final Map<String, Node> byPath = new HashMap<>();
  private long nextId = ReadOnlyFileSystem.ROOT + 1;

  WritableNodes() {
    Node root = new Node(ReadOnlyFileSystem.ROOT, "");
    byId.put(root.id, root);
    byPath.put("", root);
  }

  synchronized Node get(long id) {
    return byId.get(id);
  }

  /** The node of {@code path}, with one more lookup. */
  synchronized Node lookedUp(String path) {
    Node node = byPath.get(path);
    if (node == null) {
      node = new Node(nextId++, path);
      byId.put(node.id, node);
      byPath.put(path, node);
    }
    if (node.id != ReadOnlyFileSystem.ROOT) {
      node.lookups++;
    }
    return node;
  }

  /**
   * Takes back {@code lookups} of node {@code id}; returns it if the kernel no longer knows it (the
   * caller lets its orphan go), else null.
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
    synchronized (node) {
      if (node.path != null) {
        byPath.remove(node.path, node);
      }
    }
    return node;
  }

  /**
   * The node of {@code path} (and those under it, if it is a {@code directory}) no longer names
   * anything; returns the node of {@code path}, if the kernel knows one.
   */
  synchronized Node detach(String path, boolean directory) {
    Node exact = null;
    for (Node n : under(path, directory)) {
      byPath.remove(n.path, n);
      if (n.path.equals(path)) {
        exact = n;
      }
      synchronized (n) {
        n.path = null;
      }
    }
    return exact; // the caller gives a file's its orphan
  }

  /**
   * The node of {@code from} and those under it now name {@code to} and what is under it; returns
   * the node {@code to} had, detached.
   */
  synchronized Node move(String from, String to, boolean directory) {
    Node displaced = detach(to, directory);
    List<Node> moved = under(from, directory);
    for (Node n : moved) {
      byPath.remove(n.path, n);
    }
    for (Node n : moved) {
      synchronized (n) {
        n.path = to + n.path.substring(from.length());
      }
      byPath.put(n.path, n);
    }
    return displaced;
  }

  private List<Node> under(String path, boolean directory) {
    if (!directory) {
      Node n = byPath.get(path);
      return n == null ? List.of() : List.of(n);
    }
    List<Node> found = new ArrayList<>();
    String prefix = path + "/";
    for (Node n : byPath.values()) {
      if (n.path.equals(path) || n.path.startsWith(prefix)) {
        found.add(n);
      }
    }
    return found;
  }
}
