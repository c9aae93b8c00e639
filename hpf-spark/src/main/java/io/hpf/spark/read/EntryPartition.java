package io.hpf.spark.read;

import io.hpf.format.EntryInfo;
import io.hpf.hadoop.plan.EntryRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Whole entries of one part file, in offset order, with the metadata the driver read from the
 * catalogs: a task reads content at these offsets (one read-ahead window through the part), or no
 * part file at all when the query selects no content. Placed where most of its bytes are.
 */
final class EntryPartition implements InputPartition {
  private static final long serialVersionUID = 1L;

  final String archive;
  final int partId;
  final long[] offsets;

  /** Each entry's index in its group, 0 for an entry on its own. */
  final int[] members;

  final String[] names;
  final long[] lengths;
  final long[] mtimeMillis;

  /**
   * Whether the entries lie close together (they fill at least a quarter of the span from the first
   * to the end of the last): then the part is read through a read-ahead window, else entry by entry
   * (lookups of scattered names).
   */
  final boolean dense;

  /** Each entry's attributes; null when the query does not select them. */
  final List<Map<String, String>> attributes;

  private final String[] hosts;

  EntryPartition(String archive, EntryRun run, boolean withAttributes) {
    this.archive = archive;
    this.partId = run.partId();
    List<EntryInfo> rows = run.rows();
    int n = rows.size();
    offsets = new long[n];
    members = new int[n];
    names = new String[n];
    lengths = new long[n];
    mtimeMillis = new long[n];
    attributes = withAttributes ? new ArrayList<>(n) : null;
    for (int i = 0; i < n; i++) {
      EntryInfo row = rows.get(i);
      offsets[i] = row.offset();
      members[i] = row.member();
      names[i] = row.name();
      lengths[i] = row.rawLength();
      mtimeMillis[i] = row.mtimeMillis();
      if (withAttributes) {
        attributes.add(new LinkedHashMap<>(row.attributes()));
      }
    }
    hosts = run.hosts();
    EntryInfo last = rows.get(n - 1);
    long span = last.offset() + last.entryLength() - rows.get(0).offset();
    dense = run.bytes() * 4 >= span;
  }

  int size() {
    return offsets.length;
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }
}
