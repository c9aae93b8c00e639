package io.hpf.server.ring;

import io.hpf.archive.ArchiveFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Places archives on servers by consistent hashing with virtual nodes (TýrFS: clients locate data
 * by hashing, without asking a metadata server). Each server owns {@code virtualNodes} points on a
 * 64-bit ring, at the hashes of {@code "<id>#<i>"}; an archive belongs to the first point at or
 * after the hash of its name. Adding a server to a ring of N moves about 1/(N+1) of the archives,
 * all of them to the new server. The hash is XXH64 (seed 0) of the UTF-8 string, so a client in any
 * language places archives as the servers do (docs/SERVER.md "Several servers").
 *
 * <p>Immutable.
 */
public final class Ring {
  /** Points per server: the load of the most loaded of 100 servers stays within 1.2x the mean. */
  public static final int DEFAULT_VIRTUAL_NODES = 512;

  private final List<RingMember> members;
  private final long[] points;
  private final int[] owners;

  public Ring(List<RingMember> members, int virtualNodes) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a ring needs at least one server");
    }
    Set<String> ids = new HashSet<>();
    for (RingMember m : members) {
      if (!ids.add(m.id())) {
        throw new IllegalArgumentException("server id '" + m.id() + "' appears twice");
      }
    }
    this.members = List.copyOf(members);
    int n = members.size() * virtualNodes;
    long[][] pairs = new long[n][];
    int k = 0;
    for (int m = 0; m < members.size(); m++) {
      for (int v = 0; v < virtualNodes; v++) {
        pairs[k++] = new long[] {hash(members.get(m).id() + "#" + v), m};
      }
    }
    // Ties (two equal 64-bit hashes) are ordered by member, so every process builds the same ring.
    Arrays.sort(
        pairs,
        (a, b) -> a[0] != b[0] ? Long.compareUnsigned(a[0], b[0]) : Long.compare(a[1], b[1]));
    this.points = new long[n];
    this.owners = new int[n];
    for (int i = 0; i < n; i++) {
      points[i] = pairs[i][0];
      owners[i] = (int) pairs[i][1];
    }
  }

  /**
   * Reads a ring file: one server per line, {@code <id> <host:port>}; blank lines and lines
   * starting with '#' are skipped.
   */
  public static Ring read(Path file) throws IOException {
    List<RingMember> members = new ArrayList<>();
    int lineNumber = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      lineNumber++;
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      String[] words = t.split("\\s+");
      if (words.length != 2) {
        throw new IllegalArgumentException(
            file + ":" + lineNumber + ": expected '<id> <host:port>', found '" + t + "'");
      }
      try {
        members.add(new RingMember(words[0], words[1]));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ":" + lineNumber + ": " + e.getMessage(), e);
      }
    }
    try {
      return new Ring(members, DEFAULT_VIRTUAL_NODES);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  public List<RingMember> members() {
    return members;
  }

  /** The member of that id, or null. */
  public RingMember member(String id) {
    for (RingMember m : members) {
      if (m.id().equals(id)) {
        return m;
      }
    }
    return null;
  }

  /** The server that owns an archive. */
  public RingMember owner(String archive) {
    return members.get(owners[pointAtOrAfter(hash(archive))]);
  }

  /**
   * Every server in the order a client tries them for an archive: the owner, then the distinct
   * servers met walking on clockwise (where the archive goes when its owner leaves the ring).
   */
  public List<RingMember> preference(String archive) {
    List<RingMember> out = new ArrayList<>(members.size());
    boolean[] seen = new boolean[members.size()];
    int start = pointAtOrAfter(hash(archive));
    for (int i = 0; i < points.length && out.size() < members.size(); i++) {
      int m = owners[(start + i) % points.length];
      if (!seen[m]) {
        seen[m] = true;
        out.add(members.get(m));
      }
    }
    return out;
  }

  private int pointAtOrAfter(long h) {
    int lo = 0;
    int hi = points.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(points[mid], h) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo == points.length ? 0 : lo;
  }

  private static long hash(String s) {
    return ArchiveFormat.hash64(s.getBytes(StandardCharsets.UTF_8));
  }
}
