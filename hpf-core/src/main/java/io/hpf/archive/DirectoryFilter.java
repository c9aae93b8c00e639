package io.hpf.archive;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.NameHash;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which names may be directories of an archive a {@link GroupCommitWriter} writes: a Bloom filter
 * of every parent directory of its entries, so that a put of a new name, which must not be a
 * directory, is checked by a few hash probes instead of a catalog seek in every segment (the seek
 * decompresses and scans a catalog block per segment: most of a small put's cost). A name the
 * filter does not know is surely no directory; one it knows is checked against the archive.
 * Directories are only added (a deleted directory stays a false positive, checked exactly).
 *
 * <p>Filled from the archive's names by a background thread when the writer opens; until it is
 * full, {@link #surelyNotDirectory} answers false (every put is checked exactly). Thread-safe.
 */
final class DirectoryFilter {
  private static final int PROBES = 7;
  // At least 1 MiB: an archive that starts empty may gain very many directories (a mount copying
  // trees into it), and a saturated filter checks every put against the catalogs.
  private static final long MIN_BITS = 1L << 23;
  private static final long MAX_BITS = 1L << 27; // 16 MiB of filter at most (then more checks)

  private final AtomicLongArray words;
  private final long bits;
  private volatile boolean full;

  /** A filter sized for an archive of about {@code names} entries (10 bits each). */
  DirectoryFilter(long names) {
    long wanted = Math.min(MAX_BITS, Math.max(MIN_BITS, names * 10));
    this.bits = (wanted + 63) & ~63L;
    this.words = new AtomicLongArray((int) (bits / 64));
  }

  /** Adds the parent directories of an entry name ({@code a/b/c}: {@code a} and {@code a/b}). */
  void addParentsOf(String name) {
    for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
      add(name.substring(0, slash));
    }
  }

  /** Fills the filter from every name of {@code names}; then it answers. */
  void fill(Iterator<EntryInfo> names) {
    while (names.hasNext()) {
      addParentsOf(names.next().name());
    }
    full = true;
  }

  /** True when {@code name} is surely not a directory of the archive; false when it may be. */
  boolean surelyNotDirectory(String name) {
    if (!full) {
      return false;
    }
    long h1 = NameHash.of(name);
    long h2 = mix(h1);
    for (int i = 0; i < PROBES; i++) {
      long bit = Math.floorMod(h1 + i * h2, bits);
      if ((words.get((int) (bit >>> 6)) & (1L << bit)) == 0) {
        return true;
      }
    }
    return false;
  }

  private void add(String directory) {
    long h1 = NameHash.of(directory);
    long h2 = mix(h1);
    for (int i = 0; i < PROBES; i++) {
      long bit = Math.floorMod(h1 + i * h2, bits);
      int word = (int) (bit >>> 6);
      long mask = 1L << bit;
      for (long w = words.get(word); (w & mask) == 0; w = words.get(word)) {
        if (words.compareAndSet(word, w, w | mask)) {
          break;
        }
      }
    }
  }

  /** A second hash from the first (splitmix64's finalizer), odd so probes cover the table. */
  private static long mix(long h) {
    h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
    h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
    return (h ^ (h >>> 31)) | 1;
  }
}
