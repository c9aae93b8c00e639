package io.hpf.internal.sort;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FileFraming;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file of records on local disk that one process writes and reads back once (a sort's run, an
 * index region): records of up to 1 MiB, each with its length, in chunks of about 64 KiB, each
 * chunk with its length and CRC32C, checked as it is read. Not an archive format: it never outlives
 * the process.
 */
public final class RecordFile {
  private static final int CHUNK_BYTES = 1 << 16;
  private static final int MAX_RECORD_BYTES = 1 << 20;

  private RecordFile() {}

  /** Writes records to a new file. */
  public static final class Writer implements Closeable {
    private final OutputStream out;
    private final ByteWriter chunk = new ByteWriter(CHUNK_BYTES + 1024);

    public Writer(Path file) throws IOException {
      this.out = new BufferedOutputStream(Files.newOutputStream(file), CHUNK_BYTES);
    }

    public void add(byte[] record, int offset, int length) throws IOException {
      if (length > MAX_RECORD_BYTES) {
        throw new IllegalArgumentException("a record of " + length + " bytes");
      }
      chunk.varLong(length).bytes(record, offset, length);
      if (chunk.size() >= CHUNK_BYTES) {
        writeChunk();
      }
    }

    private void writeChunk() throws IOException {
      if (chunk.size() == 0) {
        return;
      }
      ByteWriter frame = new ByteWriter(8);
      frame.u32(chunk.size()).u32(EntryCodec.crc32c(chunk.array(), 0, chunk.size()));
      out.write(frame.array(), 0, frame.size());
      out.write(chunk.array(), 0, chunk.size());
      chunk.reset();
    }

    /** Writes the last chunk and closes the file. */
    @Override
    public void close() throws IOException {
      try {
        writeChunk();
      } finally {
        out.close();
      }
    }
  }

  /** Reads a file's records in the order written, a chunk at a time. */
  public static final class Reader implements Closeable {
    private final String name;
    private final InputStream in;
    private long chunkOffset;
    private ByteReader chunk;

    public Reader(Path file) throws IOException {
      this.name = file.toString();
      this.in = Files.newInputStream(file);
    }

    /** The next record, or null after the last. */
    public byte[] next() throws IOException {
      if (chunk == null || chunk.remaining() == 0) {
        byte[] frame = in.readNBytes(8);
        if (frame.length == 0) {
          return null;
        }
        ByteReader head = new ByteReader(name, chunkOffset, frame);
        int length = head.count("chunk length");
        int crc = head.u32("chunk CRC");
        if (length > CHUNK_BYTES + MAX_RECORD_BYTES + 16) {
          throw head.corrupt("a chunk of " + length + " bytes");
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length) {
          throw new CorruptArchiveException(name, chunkOffset, "the file ends in a chunk");
        }
        FileFraming.checkCrc(name, chunkOffset, "chunk", EntryCodec.crc32c(bytes, 0, length), crc);
        chunk = new ByteReader(name, chunkOffset + 8, bytes);
        chunkOffset += 8 + length;
      }
      return chunk.bytes(chunk.varInt("record length"), "record");
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
