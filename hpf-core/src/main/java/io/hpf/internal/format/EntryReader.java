package io.hpf.internal.format;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.store.ReadableFile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The one reader of entries in a part file (FORMAT.md "Entry"). Lookups, scans, recovery, verify,
 * compaction and engine splits all read entries here, so every length read from disk is bounded the
 * same way before it sizes anything, and every content byte handed out has been checked against its
 * CRC32C.
 *
 * <p>Bounds: an entry lies inside {@code [16, limit)} (the part's committed length, or its file
 * length when recovering); a header is at most {@link FormatConstants#MAX_ENTRY_HEADER_BYTES};
 * content is returned whole only up to {@link #MAX_WHOLE_BYTES} raw and stored, and streamed in
 * bounded memory beyond that (zstd included; lz4 content is at most 64 MiB by the format).
 *
 * <p>Thread-safe when its file is (a {@link io.hpf.internal.io.ReadAheadFile} is not: a scanner
 * owns the reader over one).
 */
public final class EntryReader {
  /** The largest content, raw or stored, that {@link #content} returns whole. */
  public static final int MAX_WHOLE_BYTES = 64 << 20;

  /** Entries up to this size are read in one read, header and content together. */
  private static final int ONE_READ_MAX_BYTES = 16 << 20;

  /** Entries up to this size are read and checked whole even when asked for as a stream. */
  public static final int STREAM_WHOLE_MAX_BYTES = EntryInfo.READ_WHOLE_MAX_BYTES;

  /** Enough for the header of almost every entry, so finding one is usually one read. */
  private static final int HEADER_PROBE_BYTES = 4096;

  /** Entries up to this size are read into a per-thread buffer rather than a new array. */
  private static final int SCRATCH_MAX_BYTES = 1 << 20;

  private static final ThreadLocal<byte[][]> SCRATCH =
      ThreadLocal.withInitial(() -> new byte[][] {new byte[16 * 1024]});

  private final ReadableFile file;
  private final String path;
  private final long limit;
  private final long fileLength;
  private final DictionarySource dictionaries;

  private final RecentGroups recentGroups = new RecentGroups();

  /**
   * @param path the part file's location, for messages
   * @param limit entries end at or before this offset (the committed length)
   */
  public EntryReader(ReadableFile file, String path, long limit, DictionarySource dictionaries) {
    this(file, path, limit, Long.MAX_VALUE, dictionaries);
  }

  /**
   * A reader of a part whose file may be shorter than its committed length (cut short by damage):
   * an entry that does not lie whole before {@code fileLength} is reported lost, naming the cut,
   * and the entries before it read as in an intact part.
   */
  public EntryReader(
      ReadableFile file, String path, long limit, long fileLength, DictionarySource dictionaries) {
    this.file = file;
    this.path = path;
    this.limit = limit;
    this.fileLength = fileLength;
    this.dictionaries = dictionaries;
  }

  public String path() {
    return path;
  }

  public long limit() {
    return limit;
  }

  /**
   * The header of the entry the index places at {@code offset}, or null if an intact entry of
   * another name is there (another name with the same 64-bit hash).
   */
  public PartEntry find(long offset, long entryLength, String name, byte[] nameUtf8)
      throws IOException {
    checkPlace(offset, entryLength);
    EntryGroup cached = recentGroups.find(offset, entryLength);
    if (cached != null) {
      return cached.find(utf8(name, nameUtf8));
    }
    int probe = (int) Math.min(entryLength, HEADER_PROBE_BYTES);
    byte[] bytes = file.readFully(offset, probe);
    int headerLength = probe >= 8 ? ByteReader.getU32(bytes, 4) : 0;
    if (headerLength > probe
        && headerLength <= entryLength
        && headerLength <= FormatConstants.MAX_ENTRY_HEADER_BYTES) {
      bytes = file.readFully(offset, headerLength); // a long name or many attributes
    }
    EntryHeader header =
        EntryCodec.parseHeader(path, offset, bytes, 0, bytes.length, name, nameUtf8);
    if (header.group()) {
      checkLength(offset, entryLength, header);
      return group(new PartEntry(offset, header), null).find(utf8(name, nameUtf8));
    }
    return matching(offset, entryLength, name, header);
  }

  /**
   * The checked content of the entry the index places at {@code offset}, read with one read when it
   * is not large; null if an intact entry of another name is there.
   *
   * @throws IllegalStateException if the content is over {@link #MAX_WHOLE_BYTES} (stream it)
   */
  public byte[] findContent(long offset, long entryLength, String name, byte[] nameUtf8)
      throws IOException {
    CheckedEntry found =
        findChecked(offset, entryLength, name, nameUtf8, MAX_WHOLE_BYTES, MAX_WHOLE_BYTES);
    if (found == null) {
      return null;
    }
    if (found.content() == null) {
      return content(found.entry()); // large: read apart, or over the limit and says so
    }
    return found.content();
  }

  /**
   * The entry the index places at {@code offset} with its content checksum and, when it is small,
   * its checked content: raw and stored lengths at most {@code maxWhole}, and at most {@code
   * maxWholeRaw} for content stored raw (a server sends larger raw content straight from the file).
   * A small entry costs one read; the others a header read and a trailer read. Null if an intact
   * entry of another name is there.
   */
  public CheckedEntry findChecked(
      long offset, long entryLength, String name, byte[] nameUtf8, int maxWhole, int maxWholeRaw)
      throws IOException {
    checkPlace(offset, entryLength);
    EntryGroup cached = recentGroups.find(offset, entryLength);
    if (cached != null) {
      return checkedMember(cached.find(utf8(name, nameUtf8)));
    }
    int whole = Math.min(maxWhole, MAX_WHOLE_BYTES);
    int wholeRaw = Math.min(maxWholeRaw, whole);
    if (entryLength <= Math.min(ONE_READ_MAX_BYTES, (long) wholeRaw + HEADER_PROBE_BYTES)) {
      int length = (int) entryLength;
      byte[] bytes = length <= SCRATCH_MAX_BYTES ? scratch(length) : new byte[length];
      file.readFully(offset, bytes, 0, length);
      EntryHeader header = EntryCodec.parseHeader(path, offset, bytes, 0, length, name, nameUtf8);
      if (header.group()) {
        checkLength(offset, entryLength, header);
        EntryGroup group = group(new PartEntry(offset, header), bytes);
        return checkedMember(group.find(utf8(name, nameUtf8)));
      }
      PartEntry entry = matching(offset, entryLength, name, header);
      return entry == null ? null : checked(entry, bytes, whole, wholeRaw);
    }
    PartEntry entry = find(offset, entryLength, name, nameUtf8);
    if (entry == null || entry.inGroup()) {
      return checkedMember(entry);
    }
    if (isSmall(entry.header(), whole, wholeRaw)) {
      return checked(entry, file.readFully(entry.offset(), (int) entry.length()), whole, wholeRaw);
    }
    byte[] trailer =
        file.readFully(
            entry.end() - FormatConstants.ENTRY_TRAILER_BYTES, FormatConstants.ENTRY_TRAILER_BYTES);
    return new CheckedEntry(entry, ByteReader.getU32(trailer, 0), null);
  }

  /** A member found in its group (or null), with its content: a group is always small. */
  private static CheckedEntry checkedMember(PartEntry member) {
    if (member == null) {
      return null;
    }
    EntryGroup g = member.group();
    return new CheckedEntry(member, g.contentCrc(member.member()), g.content(member.member()));
  }

  /** The entry held whole in {@code bytes} (from index 0), decoded when it is small. */
  private CheckedEntry checked(PartEntry entry, byte[] bytes, int whole, int wholeRaw)
      throws IOException {
    EntryHeader h = entry.header();
    int crc = ByteReader.getU32(bytes, h.headerLength() + (int) h.storedLength());
    return new CheckedEntry(
        entry,
        crc,
        isSmall(h, whole, wholeRaw)
            ? ContentCheck.decode(path, entry.offset(), h, bytes, dictionaryFor(entry))
            : null);
  }

  private static boolean isSmall(EntryHeader h, int whole, int wholeRaw) {
    int limit = h.codec() == Codec.NONE ? wholeRaw : whole;
    return h.rawLength() <= limit && h.storedLength() <= limit;
  }

  /**
   * The entry that starts at {@code offset}, whose length nothing else tells (a walk of the part).
   *
   * @throws CorruptArchiveException if no intact header is there, or the entry runs past the limit
   */
  public PartEntry readAt(long offset) throws IOException {
    long left = limit - offset;
    if (offset < FormatConstants.FILE_HEADER_BYTES
        || left < FormatConstants.ENTRY_FIXED_HEADER_BYTES + 8) {
      throw new CorruptArchiveException(
          path,
          offset,
          "a partial entry: " + Math.max(0, left) + " bytes left before the end at " + limit);
    }
    int probe = (int) Math.min(left, HEADER_PROBE_BYTES);
    byte[] bytes = file.readFully(offset, probe);
    int headerLength = ByteReader.getU32(bytes, 4);
    if (ByteReader.getU32(bytes, 0) == FormatConstants.ENTRY_MAGIC
        && headerLength > probe
        && headerLength <= left
        && headerLength <= FormatConstants.MAX_ENTRY_HEADER_BYTES) {
      bytes = file.readFully(offset, headerLength);
    }
    EntryHeader header = EntryCodec.parseHeader(path, offset, bytes, 0, bytes.length);
    if (header.entryLength() > left) {
      throw new CorruptArchiveException(
          path,
          offset,
          ContentCheck.label(header)
              + " of "
              + header.entryLength()
              + " bytes runs past the end at "
              + limit);
    }
    return new PartEntry(offset, header);
  }

  /**
   * The checked content of an entry, whole.
   *
   * @throws IllegalStateException if it is over {@link #MAX_WHOLE_BYTES} (stream it instead)
   */
  public byte[] content(PartEntry entry) throws IOException {
    if (entry.inGroup()) {
      return entry.group().content(entry.member());
    }
    if (entry.header().group()) {
      throw new IllegalStateException("a group is read through its members");
    }
    EntryHeader h = entry.header();
    checkWhole(h);
    if (h.chunked() && !isWhole(h)) {
      return ChunkedContent.inFile(file, path, entry, dictionaryFor(entry)).whole();
    }
    if (h.codec() == Codec.NONE && !h.chunked() && file.servesFromMemory()) {
      return rawContent(entry);
    }
    byte[] bytes = file.readFully(entry.offset(), (int) entry.length());
    return ContentCheck.decode(path, entry.offset(), h, bytes, dictionaryFor(entry));
  }

  /**
   * The content of an entry stored raw, read straight into the array returned and checked: from a
   * read-ahead window, one copy of the content instead of two (a scan of raw entries spent half its
   * CPU allocating and copying content twice).
   */
  private byte[] rawContent(PartEntry entry) throws IOException {
    EntryHeader h = entry.header();
    long contentAt = entry.offset() + h.headerLength();
    try {
      ContentDecompressor.checkRaw(h.storedLength(), h.rawLength());
    } catch (IllegalArgumentException e) {
      throw ContentCheck.undecodable(path, contentAt, h, e);
    }
    byte[] content = file.readFully(contentAt, (int) h.storedLength());
    byte[] trailer = file.readFully(contentAt + h.storedLength(), 4);
    ContentCheck.checkCrc(
        path,
        contentAt,
        ContentCheck.label(h),
        EntryCodec.crc32c(content, 0, content.length),
        ByteReader.getU32(trailer, 0));
    return content;
  }

  /**
   * The content as a stream in bounded memory, whatever its size and codec. The CRC32C is checked
   * when the stream reaches its end: a mismatch, or content that does not decompress to its raw
   * length, is a {@link CorruptArchiveException} from {@code read}. Not thread-safe.
   */
  public InputStream openContent(PartEntry entry) throws IOException {
    EntryHeader h = entry.header();
    if (entry.inGroup() || isWhole(h)) {
      return new ByteArrayInputStream(content(entry)); // checked whole before it is handed out
    }
    if (h.chunked()) {
      return ChunkedContent.inFile(file, path, entry, dictionaryFor(entry)).open(0);
    }
    return new EntryContentStream(file, path, entry, dictionaryFor(entry));
  }

  /**
   * The content from raw offset {@code from} on, for a reader that may stop before its end (a
   * range, a seek): every byte the stream hands out has been checked. Chunked content (FORMAT.md
   * "Chunked content") decodes and checks only the chunks from {@code from} on; small content is
   * read and checked whole; large content stored in one piece (by versions 1 to 6) is read and
   * checked to its end first, then streamed again from its start to {@code from}.
   */
  public InputStream openContent(PartEntry entry, long from) throws IOException {
    EntryHeader h = entry.header();
    if (!entry.inGroup() && !isWhole(h)) {
      if (h.chunked()) {
        return ChunkedContent.inFile(file, path, entry, dictionaryFor(entry)).open(from);
      }
      check(entry);
    }
    InputStream in = openContent(entry);
    in.skipNBytes(from);
    return in;
  }

  /** Content read and checked whole even when a stream is asked for: small, or one LZ4 block. */
  private static boolean isWhole(EntryHeader h) {
    return (h.rawLength() <= STREAM_WHOLE_MAX_BYTES && h.storedLength() <= STREAM_WHOLE_MAX_BYTES)
        || (h.codec() == Codec.LZ4 && !h.chunked());
  }

  /** Reads the content to its end and checks it (verify, recovery, compaction). */
  public void check(PartEntry entry) throws IOException {
    if (entry.inGroup()) {
      return; // its group was checked whole when it was decoded
    }
    try (InputStream in = openContent(entry)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
  }

  /** The entry's bytes exactly as stored, for a verbatim copy; checked by {@link #check} first. */
  public InputStream openStored(PartEntry entry) {
    if (entry.inGroup()) {
      throw new IllegalStateException("a member of a group has no bytes of its own to copy");
    }
    return new RangeInputStream(file, entry.offset(), entry.length());
  }

  /**
   * The members of the group entry {@code group} (as {@link #readAt} returns it), its content read,
   * decompressed and checked against its CRC32C.
   */
  public EntryGroup members(PartEntry group) throws IOException {
    EntryGroup cached = recentGroups.find(group.offset(), group.length());
    return cached != null ? cached : group(group, null);
  }

  /** Reads (unless {@code bytes} holds it from index 0), decodes and caches a group. */
  private EntryGroup group(PartEntry entry, byte[] bytes) throws IOException {
    EntryHeader h = entry.header();
    int length = (int) entry.length(); // a group header bounds both lengths to 1 MiB
    if (bytes == null || bytes.length < length) {
      bytes = file.readFully(entry.offset(), length);
    }
    EntryGroup group =
        EntryGroup.decode(
            path,
            entry.offset(),
            h,
            ContentCheck.decode(path, entry.offset(), h, bytes, dictionaryFor(entry)));
    recentGroups.add(group);
    return group;
  }

  private static byte[] utf8(String name, byte[] nameUtf8) {
    return nameUtf8 != null ? nameUtf8 : EntryNames.utf8(name);
  }

  private void checkLength(long offset, long entryLength, EntryHeader header)
      throws CorruptArchiveException {
    if (header.entryLength() != entryLength) {
      throw new CorruptArchiveException(
          path,
          offset,
          ContentCheck.label(header)
              + " is "
              + header.entryLength()
              + " bytes, index says "
              + entryLength);
    }
  }

  private void checkPlace(long offset, long entryLength) throws CorruptArchiveException {
    PartBounds.check(path, limit, fileLength, offset, entryLength);
  }

  private PartEntry matching(long offset, long entryLength, String name, EntryHeader header)
      throws CorruptArchiveException {
    if (!header.name().equals(name)) {
      return null;
    }
    checkLength(offset, entryLength, header);
    return new PartEntry(offset, header);
  }

  private static void checkWhole(EntryHeader h) {
    // Chunked content is read a chunk at a time: only its raw length is held whole.
    if (h.rawLength() > MAX_WHOLE_BYTES || (!h.chunked() && h.storedLength() > MAX_WHOLE_BYTES)) {
      throw new IllegalStateException(
          "entry '"
              + h.name()
              + "' is "
              + h.rawLength()
              + " bytes, too large to return whole; read it as a stream");
    }
  }

  Dictionary dictionaryFor(PartEntry entry) throws IOException {
    int id = entry.header().dictionaryId();
    if (id == 0) {
      return null;
    }
    Dictionary d = dictionaries.dictionary(id);
    if (d == null) {
      throw new CorruptArchiveException(
          path,
          entry.offset(),
          "entry '" + entry.header().name() + "' names dictionary " + id + ", which is not listed");
    }
    return d;
  }

  /** This thread's read buffer, at least {@code size} bytes. */
  private static byte[] scratch(int size) {
    byte[][] holder = SCRATCH.get();
    if (holder[0].length < size) {
      holder[0] = new byte[Math.max(size, 2 * holder[0].length)];
    }
    return holder[0];
  }
}
