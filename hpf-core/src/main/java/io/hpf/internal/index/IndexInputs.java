package io.hpf.internal.index;

import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.sort.RecordFile;
import io.hpf.internal.sort.ScratchDirectory;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The names and records of a segment's index, gathered while its catalog is written, by region of
 * the hash space: the top {@link #depth} bits of their name hashes. A segment of few rows keeps
 * them in memory (one region); a larger one writes each region to a file of its own on local disk
 * and {@link SegmentIndexWriter} builds the buckets of one region at a time, so that an index of
 * any size is built in the memory of {@value #REGION_RECORDS} records. Each bucket then lies within
 * one region (its local depth is at least the regions'), which extendible hashing allows. Region
 * files are {@link RecordFile}s (checksummed chunks). Not thread-safe.
 */
public final class IndexInputs implements Closeable {
  /** Records in one region, about: 256 Ki, some 40 MB of objects while its buckets are built. */
  static final int REGION_RECORDS = 1 << 18;

  private final int depth;
  private final List<IndexInput> inMemory;
  private final ScratchDirectory directory;
  private final RecordFile.Writer[] files;
  private final ByteWriter record = new ByteWriter(256);

  private IndexInputs(int depth) throws IOException {
    this.depth = depth;
    if (depth == 0) {
      inMemory = new ArrayList<>();
      directory = null;
      files = null;
      return;
    }
    inMemory = null;
    directory = ScratchDirectory.create(Path.of(System.getProperty("java.io.tmpdir")), "index");
    files = new RecordFile.Writer[1 << depth];
    for (int i = 0; i < files.length; i++) {
      files[i] = new RecordFile.Writer(regionFile(i));
    }
  }

  /** For the index of a segment of {@code count} rows. */
  public static IndexInputs forCount(long count) throws IOException {
    return forCount(count, REGION_RECORDS);
  }

  static IndexInputs forCount(long count, int regionRecords) throws IOException {
    int depth = 0;
    while ((count >> depth) > regionRecords) {
      depth++;
    }
    return new IndexInputs(depth);
  }

  /** Regions are the hash space split by this many leading bits. */
  int depth() {
    return depth;
  }

  /** Adds a name and its record. */
  public void add(byte[] nameUtf8, IndexRecord record) throws IOException {
    if (depth == 0) {
      inMemory.add(new IndexInput(nameUtf8, record));
      return;
    }
    int region = (int) (record.fingerprint() >>> (64 - depth));
    this.record.reset();
    this.record.varLong(nameUtf8.length).bytes(nameUtf8).u64(record.fingerprint());
    this.record.varLong(record.partId() & 0xFFFFFFFFL).varLong(record.offset());
    this.record.varLong(record.entryLength());
    files[region].add(this.record.array(), 0, this.record.size());
  }

  /** Ends adding. */
  void finishAdding() throws IOException {
    if (depth == 0) {
      return;
    }
    for (RecordFile.Writer file : files) {
      file.close();
    }
  }

  /** The names and records of region {@code region}, in the order added. */
  IndexInput[] region(int region) throws IOException {
    if (depth == 0) {
      return inMemory.toArray(new IndexInput[0]);
    }
    Path file = regionFile(region);
    List<IndexInput> inputs = new ArrayList<>();
    try (RecordFile.Reader in = new RecordFile.Reader(file)) {
      for (byte[] bytes = in.next(); bytes != null; bytes = in.next()) {
        ByteReader fields = new ByteReader(file.toString(), 0, bytes);
        byte[] name = fields.bytes(fields.varInt("name length"), "name");
        inputs.add(
            new IndexInput(
                name,
                new IndexRecord(
                    fields.u64("name hash"),
                    (int) fields.varLong("part id"),
                    fields.varLong("offset"),
                    fields.varLong("entry length"))));
      }
    }
    Files.delete(file); // read once
    return inputs.toArray(new IndexInput[0]);
  }

  private Path regionFile(int i) {
    return directory.resolve("region-" + i);
  }

  /** Deletes the regions' files. */
  @Override
  public void close() throws IOException {
    if (directory == null) {
      return;
    }
    for (RecordFile.Writer file : files) {
      file.close();
    }
    directory.close(); // and the regions' files in it
  }
}
