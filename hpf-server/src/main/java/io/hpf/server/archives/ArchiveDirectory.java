package io.hpf.server.archives;

import io.hpf.hadoop.roots.ArchiveRoot;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The ids of the archives under a root, found by walking it: at start, every {@code rescanNanos},
 * and when a request names an id not known (then at most once a second, so requests for missing
 * archives cannot turn into a walk each). An allow-list, when given, hides every other archive.
 *
 * <p>Thread-safe: the map is replaced whole.
 */
public final class ArchiveDirectory {
  private static final long MISS_RESCAN_NANOS = 1_000_000_000L;

  private final ArchiveRoot root;
  private final Set<String> allowed;
  private final long rescanNanos;
  private final LongSupplier clock;
  private volatile Map<String, String> archives;
  private volatile long scannedAt;

  /**
   * @param allowed the ids that may be served, or null for all
   */
  public ArchiveDirectory(
      ArchiveRoot root, Set<String> allowed, long rescanNanos, LongSupplier clock)
      throws IOException {
    this.root = root;
    this.allowed = allowed;
    this.rescanNanos = rescanNanos;
    this.clock = clock;
    rescan();
  }

  /** What a request path names: an archive and the rest of the path (an entry, or a prefix). */
  public record Target(String archive, String rest) {}

  /**
   * Splits a decoded request path ({@code a/photos/2024/x.jpg}, no leading '/') into the archive it
   * names and the rest: the shortest run of leading components that is an archive id, or names one
   * with its {@code .hpf} suffix. Null if none is.
   */
  public Target resolve(String path) throws IOException {
    Target t = find(archives, path);
    if (t == null && clock.getAsLong() - scannedAt >= MISS_RESCAN_NANOS) {
      rescan();
      t = find(archives, path);
    }
    return t;
  }

  /** The location of an archive id, or null. */
  public String location(String id) {
    return archives.get(id);
  }

  /** Every id served now, sorted. */
  public Set<String> ids() {
    return archives.keySet();
  }

  /** Walks the root again if the last walk is older than the rescan interval. */
  public void rescanIfDue() throws IOException {
    if (clock.getAsLong() - scannedAt >= rescanNanos) {
      rescan();
    }
  }

  /** Walks the root again now (an archive was made here). */
  public void rescanNow() throws IOException {
    rescan();
  }

  public ArchiveRoot root() {
    return root;
  }

  private synchronized void rescan() throws IOException {
    Map<String, String> found = root.scan();
    if (allowed != null) {
      found.keySet().retainAll(allowed);
    }
    archives = found;
    scannedAt = clock.getAsLong();
  }

  private static Target find(Map<String, String> archives, String path) {
    int end = 0;
    while (end <= path.length()) {
      int slash = path.indexOf('/', end);
      int cut = slash < 0 ? path.length() : slash;
      String head = path.substring(0, cut);
      String rest = slash < 0 ? "" : path.substring(slash + 1);
      if (archives.containsKey(head)) {
        return new Target(head, rest);
      }
      if (head.endsWith(ArchiveRoot.SUFFIX)) {
        String id = ArchiveRoot.idOf(head);
        if (archives.containsKey(id)) {
          return new Target(id, rest);
        }
      }
      if (slash < 0) {
        return null;
      }
      end = slash + 1;
    }
    return null;
  }
}
