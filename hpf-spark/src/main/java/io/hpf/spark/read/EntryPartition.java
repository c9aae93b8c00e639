package io.hpf.spark.read;

import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.plan.EntryRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Whole entries of one part file, in offset order, with the metadata the driver read from the
 * catalogs: a task reads content at these places (each run of neighbouring entries with one read),
 * or no part file at all when the query selects no content. Placed where most of its bytes are.
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

  /** Each entry's length in its part (a group's, for a member): where the task reads. */
  final long[] entryLengths;

  /** Each entry's attributes; null when the query does not select them. */
  final List<Map<String, String>> attributes;

  private final String[] hosts;

  EntryPartition(String archive, EntryRun run, boolean withAttributes) {
    this.archive = archive;
    this.partId = run.partId();
    List<EntryInfo> rows = run.rows();
    int n = rows.size();
    offsets = new long[n];
    entryLengths = new long[n];
    members = new int[n];
    names = new String[n];
    lengths = new long[n];
    mtimeMillis = new long[n];
    attributes = withAttributes ? new ArrayList<>(n) : null;
    for (int i = 0; i < n; i++) {
      EntryInfo row = rows.get(i);
      offsets[i] = row.offset();
      entryLengths[i] = row.entryLength();
      members[i] = row.member();
      names[i] = row.name();
      lengths[i] = row.rawLength();
      mtimeMillis[i] = row.mtimeMillis();
      if (withAttributes) {
        attributes.add(new LinkedHashMap<>(row.attributes()));
      }
    }
    hosts = run.hosts();
  }

  int size() {
    return offsets.length;
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }
}
