package io.hpf.archive;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.sort.RecordSorter;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The verifier's catalog rows in the order of the places they name (part, offset, member in its
 * group), sorted within a bounded memory ({@link RecordSorter}: runs on local disk past 64 MiB), so
 * that a walk of each part meets them as it meets the entries: what the verifier holds does not
 * grow with the archive. Each row keeps what the walk compares (name, lengths, codec, group place)
 * and whether it is live. Not thread-safe.
 */
final class PlacedRows implements Closeable {
  /** A catalog row and whether it is live in the archive (no newer segment shadows it). */
  record Row(EntryInfo info, boolean live) {}

  private static final int KEY_BYTES = 16; // part id, offset, member

  private final RecordSorter sorter =
      new RecordSorter(RecordSorter.byPrefix(KEY_BYTES), RecordSorter.DEFAULT_MEMORY_BYTES);
  private RecordSorter.Cursor sorted;
  private Row next; // the first row not yet taken, once sorted

  /** Adds a live or shadowed row that places an entry (not a tombstone). */
  void add(EntryInfo row, boolean live) throws IOException {
    byte[] name = EntryNames.utf8(row.name());
    ByteWriter out = new ByteWriter(KEY_BYTES + 32 + name.length);
    // The key big-endian (byte order is number order): ByteWriter writes little-endian.
    out.u32(Integer.reverseBytes(row.partId())).u64(Long.reverseBytes(row.offset()));
    out.u32(Integer.reverseBytes(row.member()));
    out.u8(live ? 1 : 0).varLong(row.rawLength()).varLong(row.storedLength());
    out.u8(row.codec().id()).varLong(row.entryLength()).varLong(row.members());
    out.bytes(name);
    sorter.add(out.toByteArray());
  }

  /** Ends adding; rows are then taken in place order. */
  void sort() throws IOException {
    sorted = sorter.sorted();
    advance();
  }

  private void advance() throws IOException {
    byte[] record = sorted.next();
    next = record == null ? null : decode(record);
  }

  private static Row decode(byte[] record) throws IOException {
    ByteReader in = new ByteReader("rows being verified", 0, record);
    int partId = Integer.reverseBytes(in.u32("part id"));
    long offset = Long.reverseBytes(in.u64("offset"));
    int member = Integer.reverseBytes(in.u32("member"));
    boolean live = in.u8("live") == 1;
    long rawLength = in.varLong("raw length");
    long storedLength = in.varLong("stored length");
    Codec codec = Codec.byId(in.u8("codec"));
    long entryLength = in.varLong("entry length");
    int members = in.varInt("members");
    String name = in.text(in.remaining(), "name");
    EntryInfo info =
        new EntryInfo(
            name,
            false,
            rawLength,
            storedLength,
            codec,
            0,
            0,
            0,
            Map.of(),
            partId,
            offset,
            entryLength,
            member,
            members);
    return new Row(info, live);
  }

  /** The part of the next row, or -1 when none is left. */
  long nextPart() {
    return next == null ? -1 : next.info().partId() & 0xFFFFFFFFL;
  }

  /** The next row of {@code partId}, or null. */
  Row peek(int partId) {
    return next != null && next.info().partId() == partId ? next : null;
  }

  /** The rows of {@code partId} at {@code offset}, in member order; empty if none. */
  List<Row> takeAt(int partId, long offset) throws IOException {
    List<Row> rows = new ArrayList<>(1);
    while (peek(partId) != null && next.info().offset() == offset) {
      rows.add(next);
      advance();
    }
    return rows;
  }

  /** Rows of {@code partId} before {@code offset}, each offset said to {@code before} once. */
  void skipBefore(int partId, long offset, LongConsumer before) throws IOException {
    long said = -1;
    while (peek(partId) != null && next.info().offset() < offset) {
      if (next.info().offset() != said) {
        said = next.info().offset();
        before.accept(said);
      }
      advance();
    }
  }

  @Override
  public void close() throws IOException {
    sorter.close();
  }
}
