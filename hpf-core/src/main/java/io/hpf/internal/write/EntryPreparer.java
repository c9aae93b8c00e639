package io.hpf.internal.write;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.ChunkedEncoder;
import io.hpf.internal.format.ContentCompressor;
import io.hpf.internal.format.EntryCodec;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Supplier;

/**
 * Makes entries ready to append to a part, outside its lock (FORMAT.md "Entry"): compresses their
 * content (kept raw where that does not shrink it) and encodes header and trailer. Thread-safe:
 * each thread compresses with a compressor of the part's that no other thread is using, one more
 * made when all are in use.
 */
final class EntryPreparer {
  private final Supplier<ContentCompressor> newCompressor;
  private final Codec codec;
  private final ConcurrentLinkedDeque<ContentCompressor> compressors =
      new ConcurrentLinkedDeque<>();

  EntryPreparer(Supplier<ContentCompressor> newCompressor) {
    this.newCompressor = newCompressor;
    ContentCompressor first = newCompressor.get();
    this.codec = first.codec();
    compressors.add(first);
  }

  /** The header of an entry whose content is stored so. */
  @FunctionalInterface
  interface HeaderFor {
    ByteWriter encode(Codec codec, int dictionaryId, int storedLength);
  }

  /**
   * An entry made ready to append: its header, stored content ({@code content[0, contentLength)},
   * then a chunk table, empty for content in one piece) and trailer.
   */
  record Prepared(
      Codec codec,
      int dictionaryId,
      ByteWriter header,
      byte[] content,
      int contentLength,
      byte[] table,
      byte[] crc) {
    int storedLength() {
      return contentLength + table.length;
    }

    long length() {
      return (long) header.size() + storedLength() + crc.length;
    }
  }

  private static final byte[] NO_TABLE = new byte[0];

  /** Content compressed in one piece, or {@code bytes} null where that did not shrink it. */
  private record Compressed(byte[] bytes, int dictionaryId) {}

  /**
   * Runs {@code work} with a compressor no other thread is using (one is made when all are in use),
   * then gives it back.
   */
  private <T> T withCompressor(java.util.function.Function<ContentCompressor, T> work) {
    ContentCompressor compressor = compressors.pollFirst();
    if (compressor == null) {
      compressor = newCompressor.get();
    }
    try {
      return work.apply(compressor);
    } finally {
      compressors.addFirst(compressor);
    }
  }

  /**
   * Compresses {@code raw[0, rawLength)} (kept raw if that does not shrink it) with a compressor no
   * other thread is using, and encodes the header: the work of an append that needs no lock.
   */
  Prepared prepare(byte[] raw, int rawLength, HeaderFor headerFor) {
    Compressed compressed =
        withCompressor(
            c -> {
              byte[] bytes = c.compress(raw, rawLength); // null: raw is no larger
              return new Compressed(bytes, bytes == null ? 0 : c.dictionaryId());
            });
    boolean shrank = compressed.bytes() != null;
    Codec stored = shrank ? codec : Codec.NONE;
    int storedLength = shrank ? compressed.bytes().length : rawLength;
    int dictionaryId = compressed.dictionaryId();
    return new Prepared(
        stored,
        dictionaryId,
        headerFor.encode(stored, dictionaryId, storedLength),
        shrank ? compressed.bytes() : raw,
        storedLength,
        NO_TABLE,
        EntryCodec.trailer(EntryCodec.crc32c(raw, 0, rawLength)));
  }

  /** As {@link #prepare}, for content stored in chunks (FORMAT.md "Chunked content"). */
  Prepared prepareChunked(byte[] nameUtf8, byte[] raw, int rawLength, EntryMetadata meta) {
    ChunkedEncoder.Encoded encoded = withCompressor(c -> ChunkedEncoder.encode(c, raw, rawLength));
    ByteWriter header =
        EntryCodec.encodeHeader(
            nameUtf8,
            encoded.shift(),
            encoded.codec(),
            encoded.dictionaryId(),
            rawLength,
            encoded.storedLength(),
            meta.mtimeMillis(),
            meta.mode(),
            meta.attributes());
    return new Prepared(
        encoded.codec(),
        encoded.dictionaryId(),
        header,
        encoded.content(),
        encoded.contentLength(),
        encoded.table(),
        EntryCodec.trailer(encoded.contentCrc()));
  }

  /** Closes the compressors (a part's last use). */
  void close() {
    for (ContentCompressor c; (c = compressors.pollFirst()) != null; ) {
      c.close();
    }
  }
}
