package io.hpf.testing;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.catalog.CatalogReader;
import io.hpf.internal.catalog.CatalogWriter;
import io.hpf.internal.index.DuplicateKeyException;
import io.hpf.internal.index.PerfectHash;
import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import java.io.IOException;
import java.util.Iterator;

/**
 * The one door from hpf-bench to hpf-core's internals, in hpf-core's test jar: the micro-benchmarks
 * of the perfect hash and the catalog measure them through it, and nothing in any module's main
 * code reaches {@code io.hpf.internal} (PackageRulesTest). Each method hands the internal object on
 * unchanged, so what is timed is the internal call itself.
 */
public final class BenchmarkDoor {
  private BenchmarkDoor() {}

  /** A perfect hash of {@code keys}, as segment buckets build one (distinct keys). */
  public static Hash perfectHash(long[] keys) {
    try {
      return new Hash(PerfectHash.build(keys));
    } catch (DuplicateKeyException e) {
      throw new IllegalArgumentException("keys are not distinct", e);
    }
  }

  /** The perfect hash's queries. */
  public static final class Hash {
    private final PerfectHash hash;

    private Hash(PerfectHash hash) {
      this.hash = hash;
    }

    /** The slot of a key that was built in. */
    public int slot(long key) {
      return hash.slot(key);
    }

    public double bitsPerKey() {
      return hash.bitsPerKey();
    }
  }

  /** Writes {@code rows} (sorted by name) as a catalog file; returns its length. */
  public static long writeCatalog(AppendableFile file, Iterator<EntryInfo> rows)
      throws IOException {
    CatalogWriter writer = new CatalogWriter(file);
    while (rows.hasNext()) {
      writer.add(rows.next());
    }
    return writer.finish();
  }

  /** A catalog file's lookups and listings. */
  public interface Catalog {
    EntryInfo find(String name) throws IOException;

    Iterator<EntryInfo> list(String prefix);
  }

  /** Opens a catalog written by {@link #writeCatalog}, checked as readers check it. */
  public static Catalog openCatalog(String name, ReadableFile file, long length, long rows)
      throws IOException {
    CatalogReader reader = CatalogReader.open(name, file, length, rows);
    return new Catalog() {
      @Override
      public EntryInfo find(String entry) throws IOException {
        return reader.find(entry);
      }

      @Override
      public Iterator<EntryInfo> list(String prefix) {
        return reader.list(prefix);
      }
    };
  }
}
