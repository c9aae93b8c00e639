package io.hpf.spark.read;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.FetchedEntry;
import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.plan.ArchiveScope;
import io.hpf.select.Selector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.spark.sql.sources.Filter;

/**
 * What the driver keeps of one archive's rows: those inside the scope a path names, chosen by the
 * {@code select} option and passing every pushed filter.
 *
 * @param archive the archive's location, as the {@code path} column starts
 */
record RowFilter(String archive, ArchiveScope scope, Selector selector, List<Filter> filters) {
  boolean accept(EntryInfo row) {
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

  /**
   * Hands each row of the archive this filter keeps to {@code rows}: named ones looked up in the
   * index together ({@link ArchiveReader#fetchAll}: one read per run of neighbouring entries, no
   * catalog listing), else a listing of the catalogs from the longest prefix the query allows.
   */
  void forEach(ArchiveReader reader, Consumer<EntryInfo> rows) throws IOException {
    Set<String> names = lookupNames();
    if (names != null) {
      for (FetchedEntry found : reader.fetchAll(new ArrayList<>(names), 0, 0)) {
        if (found != null && accept(found.info())) {
          rows.accept(found.info());
        }
      }
      return;
    }
    Iterator<EntryInfo> listing = reader.list(listingPrefix());
    while (listing.hasNext()) {
      EntryInfo row = listing.next();
      if (accept(row)) {
        rows.accept(row);
      }
    }
  }

  /** The names the filters allow at most, or null when they allow any (see EntryFilters). */
  Set<String> lookupNames() {
    return EntryFilters.lookupNames(filters, archive);
  }

  /** Where a listing starts: the longer of the scope's and the filters' prefixes. */
  String listingPrefix() {
    String filtered = EntryFilters.namePrefix(filters);
    return filtered.startsWith(scope.under()) ? filtered : scope.under();
  }
}
