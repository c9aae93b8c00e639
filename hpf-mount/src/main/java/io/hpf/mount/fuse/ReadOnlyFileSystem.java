package io.hpf.mount.fuse;

import java.nio.ByteBuffer;

/**
 * What a read-only file system answers the kernel, by node: the kernel names every file and
 * directory by the node id a lookup gave it (1 is the root) until it forgets it. A node is one
 * thing for its whole life — a file's node always reads the same bytes — so the kernel may cache a
 * node's attributes and pages as long as it keeps the node; a changed file is a new node. Calls
 * come from several threads at once.
 */
public interface ReadOnlyFileSystem {
  /** The node id of the root. */
  long ROOT = 1;

  /**
   * The node of {@code name} in directory {@code parent}; counts one lookup of it, which {@link
   * #forget} gives back.
   */
  Entry lookup(long parent, String name) throws FuseError;

  /** The kernel dropped {@code lookups} of its lookups of {@code node}; at none it is gone. */
  void forget(long node, long lookups);

  Attributes attributes(long node) throws FuseError;

  /** Starts a listing of directory {@code node}; returns its handle. */
  long openDirectory(long node) throws FuseError;

  /** Gives the listing's entries from after {@code offset} until {@code sink} is full. */
  void readDirectory(long node, long handle, long offset, DirectorySink sink) throws FuseError;

  void releaseDirectory(long handle);

  /**
   * Puts up to {@code size} bytes of file {@code node} from {@code offset} into {@code into};
   * returns how many (fewer only at the end of the file). Every byte has passed its checksum.
   */
  int read(long node, long offset, int size, ByteBuffer into) throws FuseError;

  /** What {@code df} shows: the bytes and files held. */
  Usage usage();

  /** A node and what it is. */
  record Entry(long node, Attributes attributes) {}

  record Usage(long bytes, long files) {}

  /** Where a listing's entries go: one reply to the kernel. */
  interface DirectorySink {
    /** Whether an entry of this name fits in the reply; none is added after one that did not. */
    boolean fits(String name);

    /**
     * Whether entries carry their node (READDIRPLUS): each entry with a node counts a lookup of it;
     * one without (node 0) lets the kernel look it up itself.
     */
    boolean withNodes();

    /** Adds an entry that {@link #fits}; {@code next} is the offset a listing resumes from. */
    void add(String name, long next, Entry entry);
  }
}
