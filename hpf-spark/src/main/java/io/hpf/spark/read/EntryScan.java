package io.hpf.spark.read;

import io.hpf.archive.ArchiveReader;
import io.hpf.format.EntryInfo;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.plan.ArchiveScope;
import io.hpf.hadoop.plan.EntryRun;
import io.hpf.hadoop.plan.PartRuns;
import io.hpf.select.Selector;
import io.hpf.select.SelectorParser;
import io.hpf.spark.EntrySchema;
import io.hpf.spark.HadoopConf;
import io.hpf.store.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read of archives. Planning, on the driver, reads manifests and catalogs only (and the
 * index for {@code name =}/{@code IN}, one lookup per name, no catalog listing), asks each part
 * file's block locations once, and cuts the selected entries into partitions of whole entries of
 * one part up to {@code maxPartitionBytes} (the MapReduce splits' rules): no NameNode call per
 * entry.
 */
final class EntryScan implements Scan, Batch {
  private static final int LOOKUP_THREADS = 8;
  private static final int LOOKUPS_IN_PARALLEL_FROM = 32;

  private final HadoopConf conf;
  private final ReadOptions options;
  private final List<Filter> filters;
  private final StructType required;

  EntryScan(HadoopConf conf, ReadOptions options, List<Filter> filters, StructType required) {
    this.conf = conf;
    this.options = options;
    this.filters = List.copyOf(filters);
    this.required = required;
  }

  @Override
  public StructType readSchema() {
    return required;
  }

  @Override
  public String description() {
    return "hpf " + options.paths() + " filters " + filters + " select '" + options.select() + "'";
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    Configuration hadoop = conf.get();
    Selector selector = SelectorParser.parse(options.select());
    boolean withAttributes = Arrays.asList(required.fieldNames()).contains(EntrySchema.ATTRIBUTES);
    List<InputPartition> partitions = new ArrayList<>();
    try {
      for (String path : options.paths()) {
        for (ArchiveScope scope : ArchiveScope.resolve(new Path(path), hadoop)) {
          String archive = scope.archive().toString();
          try (Storage storage = HadoopArchives.open(scope.archive(), hadoop);
              ArchiveReader reader = ArchiveReader.open(storage)) {
            List<EntryInfo> rows = select(reader, scope, selector);
            for (EntryRun run : PartRuns.plan(reader, storage, rows, options.maxPartitionBytes())) {
              partitions.add(new EntryPartition(archive, run, withAttributes));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    return partitions.toArray(new InputPartition[0]);
  }

  private List<EntryInfo> select(ArchiveReader reader, ArchiveScope scope, Selector selector)
      throws IOException {
    String archive = scope.archive().toString();
    List<EntryInfo> rows = new ArrayList<>();
    Set<String> names = EntryFilters.lookupNames(filters, archive);
    if (names != null) {
      for (EntryInfo row : lookUp(reader, names)) {
        if (row != null && accept(row, archive, scope, selector)) {
          rows.add(row);
        }
      }
      return rows;
    }
    Iterator<EntryInfo> listing = reader.list(listingPrefix(scope.under()));
    while (listing.hasNext()) {
      EntryInfo row = listing.next();
      if (accept(row, archive, scope, selector)) {
        rows.add(row);
      }
    }
    return rows;
  }

  /**
   * Each name's row (null for a missing name), in the names' order. A lookup is an index read and
   * an entry-header read, each a round trip on HDFS: many names are looked up eight at a time (the
   * reader is thread-safe).
   */
  private static List<EntryInfo> lookUp(ArchiveReader reader, Set<String> names)
      throws IOException {
    List<String> ordered = new ArrayList<>(names);
    EntryInfo[] found = new EntryInfo[ordered.size()];
    if (ordered.size() < LOOKUPS_IN_PARALLEL_FROM) {
      for (int i = 0; i < found.length; i++) {
        found[i] = reader.stat(ordered.get(i));
      }
      return Arrays.asList(found);
    }
    ExecutorService pool = Executors.newFixedThreadPool(LOOKUP_THREADS);
    try {
      List<Future<?>> lookups = new ArrayList<>();
      for (int t = 0; t < LOOKUP_THREADS; t++) {
        int first = t;
        lookups.add(
            pool.submit(
                () -> {
                  for (int i = first; i < found.length; i += LOOKUP_THREADS) {
                    found[i] = reader.stat(ordered.get(i));
                  }
                  return null;
                }));
      }
      for (Future<?> lookup : lookups) {
        lookup.get();
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while looking names up");
    } finally {
      pool.shutdownNow();
    }
    return Arrays.asList(found);
  }

  /** The longer of the scope's and the filters' prefixes when one extends the other. */
  private String listingPrefix(String under) {
    String filtered = EntryFilters.namePrefix(filters);
    return filtered.startsWith(under) ? filtered : under;
  }

  private boolean accept(EntryInfo row, String archive, ArchiveScope scope, Selector selector) {
    if (!scope.contains(row.name()) || !selector.select(row)) {
      return false;
    }
    for (Filter f : filters) {
      if (!EntryFilters.test(f, archive, row)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new EntryReaderFactory(conf, required, options.maxEntryBytes());
  }
}
