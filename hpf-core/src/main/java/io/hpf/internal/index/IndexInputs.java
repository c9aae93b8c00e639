package io.hpf.internal.index;

import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FileFraming;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
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
 * one region (its local depth is at least the regions'), which extendible hashing allows. Files are
 * written in chunks, each with its CRC32C, checked as they are read back. Not thread-safe.
 */
public final class IndexInputs implements Closeable {
  /** Records in one region, about: 256 Ki, some 40 MB of objects while its buckets are built. */
  static final int REGION_RECORDS = 1 << 18;

  private static final int CHUNK_BYTES = 1 << 16;

  private final int depth;
  private final List<IndexInput> inMemory;
  private final Path directory;
  private final ByteWriter[] chunks;
  private final OutputStream[] files;

  private IndexInputs(int depth) throws IOException {
    this.depth = depth;
    if (depth == 0) {
      inMemory = new ArrayList<>();
      directory = null;
      chunks = null;
      files = null;
      return;
    }
    inMemory = null;
    directory = Files.createTempDirectory("hpf-index");
    chunks = new ByteWriter[1 << depth];
    files = new OutputStream[1 << depth];
    for (int i = 0; i < files.length; i++) {
      chunks[i] = new ByteWriter(CHUNK_BYTES + 1024);
      files[i] = new BufferedOutputStream(Files.newOutputStream(regionFile(i)), CHUNK_BYTES);
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
    ByteWriter chunk = chunks[region];
    chunk.varLong(nameUtf8.length).bytes(nameUtf8).u64(record.fingerprint());
    chunk.varLong(record.partId() & 0xFFFFFFFFL).varLong(record.offset());
    chunk.varLong(record.entryLength());
    if (chunk.size() >= CHUNK_BYTES) {
      flushChunk(region);
    }
  }

  private void flushChunk(int region) throws IOException {
    ByteWriter chunk = chunks[region];
    ByteWriter frame = new ByteWriter(8);
    frame.u32(chunk.size()).u32(EntryCodec.crc32c(chunk.array(), 0, chunk.size()));
    files[region].write(frame.array(), 0, frame.size());
    files[region].write(chunk.array(), 0, chunk.size());
    chunk.reset();
  }

  /** Ends adding. */
  void finishAdding() throws IOException {
    if (depth == 0) {
      return;
    }
    for (int i = 0; i < files.length; i++) {
      flushChunk(i);
      files[i].close();
    }
  }

  /** The names and records of region {@code region}, in the order added. */
  IndexInput[] region(int region) throws IOException {
    if (depth == 0) {
      return inMemory.toArray(new IndexInput[0]);
    }
    Path file = regionFile(region);
    byte[] bytes = Files.readAllBytes(file); // one read: about 60 bytes a record, 16 MB a region
    List<IndexInput> inputs = new ArrayList<>(bytes.length / 40);
    ByteReader frames = new ByteReader(file.toString(), 0, bytes);
    while (frames.remaining() > 0) {
      long at = frames.arrayPosition();
      int length = frames.count("index chunk length");
      int crc = frames.u32("index chunk CRC");
      if (length > CHUNK_BYTES + 1024 || length > frames.remaining()) {
        throw frames.corrupt("index chunk of " + length + " bytes");
      }
      int start = frames.arrayPosition();
      FileFraming.checkCrc(
          file.toString(), at, "index chunk", EntryCodec.crc32c(bytes, start, length), crc);
      ByteReader rows = new ByteReader(file.toString(), start, bytes, start, length);
      while (rows.remaining() > 0) {
        byte[] name = rows.bytes(rows.varInt("name length"), "name");
        IndexRecord record =
            new IndexRecord(
                rows.u64("name hash"),
                (int) rows.varLong("part id"),
                rows.varLong("offset"),
                rows.varLong("entry length"));
        inputs.add(new IndexInput(name, record));
      }
      frames.skip(length, "index chunk");
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
    for (OutputStream file : files) {
      file.close();
    }
    for (int i = 0; i < files.length; i++) {
      Files.deleteIfExists(regionFile(i));
    }
    Files.deleteIfExists(directory);
  }
}
