package io.hpf.spark.read;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.PartCursor;
import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.plan.PartRuns;
import io.hpf.store.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;

/**
 * The rows of one {@link EntryPartition}, in its columns. Metadata comes with the partition; the
 * part file is opened only when {@code content} is selected, then read at the planned places
 * (neighbours together), each entry's header checked against the name the driver planned.
 */
final class EntryPartitionReader implements PartitionReader<InternalRow> {
  private final EntryPartition partition;
  private final EntryRows rows;
  private final long maxEntryBytes;
  private final Configuration conf;
  private int next = -1;
  private InternalRow current;
  private Storage storage;
  private ArchiveReader reader;
  private PartCursor cursor;

  EntryPartitionReader(
      EntryPartition partition, StructType required, long maxEntryBytes, Configuration conf) {
    this.partition = partition;
    this.rows = new EntryRows(required);
    this.maxEntryBytes = maxEntryBytes;
    this.conf = conf;
  }

  @Override
  public boolean next() throws IOException {
    next++;
    if (next >= partition.size()) {
      return false;
    }
    String name = partition.names[next];
    current =
        rows.row(
            partition.archive,
            name,
            partition.lengths[next],
            partition.mtimeMillis[next],
            partition.attributes == null ? null : partition.attributes.get(next),
            () -> content(name));
    return true;
  }

  @Override
  public InternalRow get() {
    return current;
  }

  private byte[] content(String name) throws IOException {
    long offset = partition.offsets[next];
    EntryInfo entry = cursor().entryAt(offset, partition.members[next]);
    if (!entry.name().equals(name)) {
      throw new IOException(
          partition.archive
              + ": part "
              + partition.partId
              + " at offset "
              + offset
              + " holds '"
              + entry.name()
              + "', not '"
              + name
              + "' as when the query was planned: run the query again");
    }
    if (entry.rawLength() > maxEntryBytes) {
      throw EntryRows.tooLarge(partition.archive, name, entry.rawLength(), maxEntryBytes);
    }
    if (entry.isReadWhole()) {
      return cursor.content();
    }
    try (InputStream in = cursor.openContent()) {
      byte[] bytes = in.readNBytes((int) entry.rawLength());
      if (bytes.length != entry.rawLength() || in.read() != -1) { // the read at the end checks
        throw new IOException(partition.archive + "/" + name + ": content length differs");
      }
      return bytes;
    }
  }

  private PartCursor cursor() throws IOException {
    if (cursor == null) {
      storage = HadoopArchives.open(URI.create(partition.archive), conf);
      reader = ArchiveReader.open(storage);
      if (PartRuns.committedLength(reader.manifest(), partition.partId) < 0) {
        throw new IOException(
            partition.archive
                + ": part "
                + partition.partId
                + " is gone (the archive was compacted or overwritten after the query was"
                + " planned): run the query again");
      }
      cursor = reader.openPart(partition.partId, partition.offsets, partition.entryLengths);
    }
    return cursor;
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
