package io.hpf.mapreduce;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.PartCursor;
import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.plan.PartRuns;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Reads the entries of an {@link HpfSplit} in offset order through one read-ahead window
 * (SFMapReduce's SFRecordReader); progress is the share of the split's bytes read.
 *
 * @param <V> the value type
 */
abstract class EntryRecordReader<V> extends RecordReader<EntryKey, V> {
  private HpfSplit split;
  private long[] offsets;
  private int[] members;
  private int next;
  private long bytesRead;
  private Storage storage;
  private ArchiveReader reader;
  private PartCursor cursor;
  private final EntryKey key = new EntryKey();

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
    split = (HpfSplit) genericSplit;
    offsets = split.offsets();
    members = split.members();
    storage = HadoopArchives.open(URI.create(split.archive()), context.getConfiguration());
    reader = ArchiveReader.open(storage);
    if (PartRuns.committedLength(reader.manifest(), split.partId()) < 0) {
      throw new IOException(
          split.archive()
              + ": part "
              + split.partId()
              + " of this job's input is gone (the archive was compacted after the job started):"
              + " run the job again");
    }
    // Each run of neighbouring entries with one read, nothing between runs (a selection's split
    // may be sparse; a dense one reads like an 8 MiB window).
    cursor = reader.openPart(split.partId(), offsets, split.entryLengths());
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    if (next >= offsets.length) {
      return false;
    }
    EntryInfo entry = cursor.entryAt(offsets[next], members[next]);
    next++;
    key.set(split.archive(), entry);
    setValue(entry, cursor);
    bytesRead += entry.accountedBytes();
    return true;
  }

  /** Sets the current value to the entry {@code cursor} is at. */
  abstract void setValue(EntryInfo entry, PartCursor cursor) throws IOException;

  @Override
  public EntryKey getCurrentKey() {
    return key;
  }

  @Override
  public float getProgress() {
    return split.getLength() == 0 ? 1f : Math.min(1f, (float) bytesRead / split.getLength());
  }

  @Override
  public void close() throws IOException {
    try (Storage s = storage;
        ArchiveReader r = reader;
        PartCursor c = cursor) {
      // closed in reverse order by try-with-resources, nulls skipped
    }
  }
}
