package io.hpf.spark.read;

import io.hpf.archive.FetchedEntry;
import io.hpf.archive.model.EntryInfo;
import io.hpf.spark.EntrySchema;
import io.hpf.spark.HadoopConf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * A lookup by name answered on the driver, with no Spark job (Spark's {@link LocalScan}: the rows
 * become a local table). When the pushed filters name the entries ({@code name =}/{@code IN}, or
 * {@code path}), each archive's named entries are fetched together ({@link
 * io.hpf.archive.ArchiveReader#fetchAll}: the index, then one read per run of neighbouring
 * entries), as long as their content stays within the option {@value
 * ReadOptions#DRIVER_LOOKUP_BYTES}; past it, tasks read them ({@link EntryScan}). A job's tasks,
 * their scheduling and a read per entry cost more than the lookup itself.
 */
final class LookupScan extends DriverScan {
  private LookupScan(InternalRow[] rows, StructType required, String description) {
    super(rows, required, description);
  }

  /**
   * The scan, or null when the filters name no entries or their content is over the budget.
   *
   * @throws IOException as reads do, or if a named entry's content is over {@value
   *     ReadOptions#MAX_ENTRY_BYTES}
   */
  static LookupScan plan(
      HadoopConf conf, ReadOptions options, List<Filter> filters, StructType required)
      throws IOException {
    if (options.driverLookupBytes() == 0 || EntryFilters.lookupNames(filters, "") == null) {
      return null;
    }
    EntryRows maker = new EntryRows(required);
    boolean content = maker.withContent();
    boolean attributes = Arrays.asList(required.fieldNames()).contains(EntrySchema.ATTRIBUTES);
    List<InternalRow> rows = new ArrayList<>();
    long[] left = {options.driverLookupBytes()};
    boolean fits =
        ScannedArchives.forEach(
            conf,
            options,
            filters,
            (storage, reader, filter) -> {
              Set<String> names = filter.lookupNames();
              int whole = content ? (int) Math.min(options.maxEntryBytes(), left[0]) : 0;
              for (FetchedEntry found :
                  reader.fetchAll(new ArrayList<>(names), whole, content ? left[0] : 0)) {
                if (found == null || !filter.accept(found.info())) {
                  continue;
                }
                EntryInfo e = found.info();
                if (content && e.rawLength() > options.maxEntryBytes()) {
                  throw EntryRows.tooLarge(
                      filter.archive(), e.name(), e.rawLength(), options.maxEntryBytes());
                }
                if (content && found.content() == null) {
                  return false; // over the budget: tasks read these
                }
                left[0] -= content ? found.content().length : 0;
                rows.add(
                    maker.row(
                        filter.archive(),
                        e.name(),
                        e.rawLength(),
                        e.mtimeMillis(),
                        attributes ? e.attributes() : null,
                        found::content));
              }
              return true;
            });
    return fits
        ? new LookupScan(
            rows.toArray(new InternalRow[0]),
            required,
            "hpf lookup on the driver " + options.paths() + " filters " + filters)
        : null;
  }
}
