package io.hpf.spark.read;

import io.hpf.format.EntryInfo;
import io.hpf.hadoop.plan.ArchiveScope;
import io.hpf.select.Selector;
import java.util.List;
import java.util.Set;
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
