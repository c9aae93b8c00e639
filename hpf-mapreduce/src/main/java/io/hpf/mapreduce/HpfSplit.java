package io.hpf.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * Whole entries of one part file, by offset (ascending), entry length and index in their group: the
 * places are those of the catalog when the job started, so a task reads the snapshot the splits
 * were made from, a run of neighbouring entries at a time. Hosts are where most of the split's
 * bytes lie; like a {@code FileSplit}'s they are not serialized.
 */
public final class HpfSplit extends InputSplit implements Writable {
  /** Offsets in a split: a bound for reading one back (a split of 1-byte entries of 1 GiB). */
  private static final int MAX_ENTRIES = 1 << 27;

  private String archive;
  private int partId;
  private long[] offsets;
  private long[] entryLengths;
  private int[] members;
  private long length;
  private String[] hosts;

  /** For deserialization. */
  public HpfSplit() {}

  HpfSplit(
      String archive,
      int partId,
      long[] offsets,
      long[] entryLengths,
      int[] members,
      long length,
      String[] hosts) {
    if (entryLengths.length != offsets.length || members.length != offsets.length) {
      throw new IllegalArgumentException("offsets, lengths and members of different counts");
    }
    this.archive = archive;
    this.partId = partId;
    this.offsets = offsets;
    this.entryLengths = entryLengths;
    this.members = members;
    this.length = length;
    this.hosts = hosts;
  }

  /** The archive's location (a URI on its own file system). */
  public String archive() {
    return archive;
  }

  public int partId() {
    return partId;
  }

  /** The entries' offsets in the part, ascending. */
  public long[] offsets() {
    return offsets.clone();
  }

  /** Each entry's length in the part (its group's, for a member), in the order of the offsets. */
  public long[] entryLengths() {
    return entryLengths.clone();
  }

  /** Each entry's index in its group (0 for an entry on its own), in the order of the offsets. */
  public int[] members() {
    return members.clone();
  }

  public int entryCount() {
    return offsets.length;
  }

  /** Bytes of the split's entries as stored. */
  @Override
  public long getLength() {
    return length;
  }

  @Override
  public String[] getLocations() {
    return hosts == null ? new String[0] : hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, archive);
    WritableUtils.writeVInt(out, partId);
    WritableUtils.writeVLong(out, length);
    WritableUtils.writeVInt(out, offsets.length);
    long previous = 0;
    for (int i = 0; i < offsets.length; i++) {
      WritableUtils.writeVLong(out, offsets[i] - previous); // ascending: small deltas
      WritableUtils.writeVLong(out, entryLengths[i]);
      WritableUtils.writeVInt(out, members[i]);
      previous = offsets[i];
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    archive = Text.readString(in);
    partId = WritableUtils.readVInt(in);
    length = WritableUtils.readVLong(in);
    int n = WritableUtils.readVInt(in);
    if (n < 0 || n > MAX_ENTRIES) {
      throw new IOException("a split of " + n + " entries");
    }
    offsets = new long[n];
    entryLengths = new long[n];
    members = new int[n];
    long previous = 0;
    for (int i = 0; i < n; i++) {
      previous += WritableUtils.readVLong(in);
      offsets[i] = previous;
      entryLengths[i] = WritableUtils.readVLong(in);
      members[i] = WritableUtils.readVInt(in);
    }
    hosts = null;
  }

  @Override
  public String toString() {
    return archive + " part " + partId + ": " + offsets.length + " entries, " + length + " bytes";
  }
}
