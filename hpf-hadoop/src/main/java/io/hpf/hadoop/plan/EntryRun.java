package io.hpf.hadoop.plan;

import io.hpf.archive.model.EntryInfo;
import java.util.List;

/**
 * Whole entries of one part file, in offset order, that one task reads: a MapReduce split or a
 * Spark partition. Immutable.
 *
 * @param partId the part file holding the entries
 * @param rows the entries' catalog rows, ascending by offset
 * @param bytes the entries' bytes as stored (headers included; a group's once)
 * @param hosts where most of those bytes are, most first
 */
public record EntryRun(int partId, List<EntryInfo> rows, long bytes, String[] hosts) {
  public EntryRun {
    rows = List.copyOf(rows);
    hosts = hosts.clone();
  }

  /** The entries' offsets in the part, ascending. */
  public long[] offsets() {
    long[] offsets = new long[rows.size()];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = rows.get(i).offset();
    }
    return offsets;
  }

  /** Each entry's length in the part (its group's, for a member), in the order of the offsets. */
  public long[] entryLengths() {
    long[] lengths = new long[rows.size()];
    for (int i = 0; i < lengths.length; i++) {
      lengths[i] = rows.get(i).entryLength();
    }
    return lengths;
  }

  /** Each entry's index in its group (0 for an entry on its own), in the order of the offsets. */
  public int[] members() {
    int[] members = new int[rows.size()];
    for (int i = 0; i < members.length; i++) {
      members[i] = rows.get(i).member();
    }
    return members;
  }

  @Override
  public String[] hosts() {
    return hosts.clone();
  }
}
