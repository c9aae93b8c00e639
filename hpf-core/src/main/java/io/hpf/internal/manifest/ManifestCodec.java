package io.hpf.internal.manifest;

import io.hpf.archive.ArchiveSettings;
import io.hpf.archive.Codec;
import io.hpf.archive.CorruptArchiveException;
import io.hpf.archive.Generation;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.index.SegmentDirectory;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes manifest files (FORMAT.md "Manifest"). The directory of each segment is
 * stored as its leaves in hash order (depth and bucket), from which the 2^globalDepth pointers
 * follow, so the manifest stays small however deep the directory.
 */
public final class ManifestCodec {
  private static final int NO_BUCKET = -1;

  /** Bytes of a leaf: depth u8, bucket u32. */
  private static final int LEAF_BYTES = 5;

  /** Bytes of a bucket descriptor in versions 1–3, which had no offset. */
  private static final int DESCRIPTOR_BYTES_V1 = SegmentDirectory.DESCRIPTOR_BYTES - 8;

  private ManifestCodec() {}

  public static byte[] encode(Manifest m) {
    ByteWriter out = new ByteWriter(1024);
    FileFraming.writeHeader(out, FormatConstants.KIND_MANIFEST);
    out.u64(m.generation()).u64(m.commitMillis()).string16(m.operation());
    out.u8(FormatConstants.NAME_HASH_XXH64).u8(0).u16(0).u32(m.bucketCapacity());
    ArchiveSettings settings = m.writerSettings();
    if (settings == null) {
      throw new IllegalArgumentException("a manifest is written with the writer settings");
    }
    out.u8(settings.codec().id()).u32(settings.groupBytes()).u32(settings.groupEntryMaxBytes());
    out.u8(settings.zstdLevel());
    out.u32(m.partIdMark()).u32(m.segmentIdMark());
    out.u64(m.liveEntries()).u64(m.liveEntryBytes());
    out.u32(m.dictionaries().size());
    for (Manifest.DictionaryRef d : m.dictionaries()) {
      out.u32(d.dictionaryId()).u64(d.length()).u32(d.segmentId()).u64(d.offset());
    }
    out.u32(m.parts().size());
    for (Generation.Part p : m.parts()) {
      out.u32(p.partId()).u64(p.committedLength());
    }
    out.u32(m.segments().size());
    for (Manifest.SegmentRef s : m.segments()) {
      out.u32(s.segmentId()).u64(s.entryCount()).u64(s.tombstoneCount()).u64(s.catalogLength());
      out.u64(s.fileLength());
      SegmentDirectory dir = s.directory();
      out.u8(dir.globalDepth()).u32(dir.buckets().size());
      for (BucketDescriptor b : dir.buckets()) {
        out.u32(b.bucketNo()).u8(b.localDepth()).u32(b.keyCount()).u32(b.metaLength());
        out.u64(b.fileLength()).u64(b.offset());
      }
      List<int[]> leaves = leaves(dir);
      out.u32(leaves.size());
      for (int[] leaf : leaves) {
        out.u8(leaf[0]).u32(leaf[1]);
      }
    }
    out.u32(m.history().size());
    for (Generation.Change h : m.history()) {
      out.u64(h.generation()).u64(h.commitMillis()).string16(h.operation()).u64(h.liveEntries());
    }
    FileFraming.writeFooter(out);
    return out.toByteArray();
  }

  /** The directory's leaves in pointer order: {depth, bucket index or -1}. */
  private static List<int[]> leaves(SegmentDirectory dir) {
    List<int[]> leaves = new ArrayList<>();
    int g = dir.globalDepth();
    int i = 0;
    while (i < dir.pointerCount()) {
      int bucket = dir.pointer(i);
      // A run of equal pointers of length 2^k, aligned, is one leaf of depth g-k. An empty
      // region may span several aligned leaves; split it at alignment boundaries.
      int run = 1;
      while (i + run < dir.pointerCount() && dir.pointer(i + run) == bucket) {
        run++;
      }
      if (bucket != NO_BUCKET) {
        int depth = dir.buckets().get(bucket).localDepth();
        int span = 1 << (g - depth);
        for (int k = 0; k < run; k += span) {
          leaves.add(new int[] {depth, bucket});
        }
      } else {
        int k = 0;
        while (k < run) {
          int span = Integer.lowestOneBit(i + k == 0 ? 1 << g : i + k);
          while (span > run - k) {
            span >>= 1;
          }
          leaves.add(new int[] {g - Integer.numberOfTrailingZeros(span), NO_BUCKET});
          k += span;
        }
      }
      i += run;
    }
    return leaves;
  }

  /**
   * The writer settings of a manifest of version 5 (codec and groups) or later (and the zstd
   * level), refused unless a writer could have them.
   */
  private static ArchiveSettings writerSettings(ByteReader in, int version)
      throws CorruptArchiveException {
    int codecId = in.u8("codec");
    Codec codec = Codec.byId(codecId);
    if (codec == null) {
      throw in.corrupt("unknown codec " + codecId + " in the writer settings");
    }
    int groupBytes = in.u32("group size");
    int groupEntryMaxBytes = in.u32("group entry size");
    int level =
        version >= FormatConstants.VERSION_ZSTD_LEVEL
            ? in.u8("zstd level")
            : ArchiveSettings.DEFAULT_ZSTD_LEVEL;
    try {
      return new ArchiveSettings(codec, groupBytes, groupEntryMaxBytes, level);
    } catch (IllegalArgumentException e) {
      throw in.corrupt("writer settings: " + e.getMessage());
    }
  }

  public static Manifest decode(String file, byte[] bytes) throws CorruptArchiveException {
    int version =
        FileFraming.checkHeader(file, bytes, 0, bytes.length, FormatConstants.KIND_MANIFEST);
    // Version 4 places catalogs, buckets and dictionaries in segment files: each says where.
    boolean placed = version >= FormatConstants.VERSION_SEGMENT_FILES;
    FileFraming.checkFooter(file, bytes, bytes.length);
    ByteReader in =
        new ByteReader(
            file,
            FormatConstants.FILE_HEADER_BYTES,
            bytes,
            FormatConstants.FILE_HEADER_BYTES,
            bytes.length - FormatConstants.FILE_HEADER_BYTES - FormatConstants.FOOTER_BYTES);
    long generation = in.u64("generation");
    long commitMillis = in.u64("commit time");
    String operation = in.string16("operation");
    int hashAlgorithm = in.u8("name hash algorithm");
    if (hashAlgorithm != FormatConstants.NAME_HASH_XXH64) {
      throw in.corrupt("unknown name hash algorithm " + hashAlgorithm + " (expected 1, XXH64)");
    }
    if (in.u8("reserved") != 0 || in.u16("reserved") != 0) {
      throw in.corrupt("reserved manifest fields are not 0");
    }
    int bucketCapacity = in.count("bucket capacity");
    ArchiveSettings settings =
        version >= FormatConstants.VERSION_WRITER_SETTINGS ? writerSettings(in, version) : null;
    Manifest.IdMarks marks =
        version >= FormatConstants.VERSION_ID_MARKS
            ? new Manifest.IdMarks(in.count("part id mark"), in.count("segment id mark"))
            : null;
    long liveEntries = in.u64("live entries");
    long liveEntryBytes = in.u64("live entry bytes");
    List<Manifest.DictionaryRef> dictionaries = dictionaries(in, placed);
    List<Generation.Part> parts = parts(in);
    List<Manifest.SegmentRef> segments = segments(in, placed);
    for (Manifest.DictionaryRef d : dictionaries) {
      checkPlacement(in, d, segments);
    }
    List<Generation.Change> history = history(in);
    if (in.remaining() != 0) {
      throw in.corrupt(in.remaining() + " unexpected bytes before the footer");
    }
    return new Manifest(
        generation,
        commitMillis,
        operation,
        bucketCapacity,
        settings,
        liveEntries,
        liveEntryBytes,
        dictionaries,
        parts,
        segments,
        history,
        checkMarks(in, marks, parts, segments));
  }

  /** The dictionaries, each id once; version 4 on says where each lies in a segment file. */
  private static List<Manifest.DictionaryRef> dictionaries(ByteReader in, boolean placed)
      throws CorruptArchiveException {
    List<Manifest.DictionaryRef> dictionaries = new ArrayList<>();
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (int i = in.count("dictionary count"); i > 0; i--) {
      int id = in.u32("dictionary id");
      if (!ids.add(id)) {
        throw in.corrupt("manifest names dictionary " + Integer.toUnsignedString(id) + " twice");
      }
      long length = in.u64("dictionary length");
      dictionaries.add(
          placed
              ? new Manifest.DictionaryRef(
                  id, length, in.u32("dictionary segment"), in.u64("dictionary offset"))
              : Manifest.DictionaryRef.ownFile(id, length));
    }
    return dictionaries;
  }

  /** The parts, each id once, each committed past its file header. */
  private static List<Generation.Part> parts(ByteReader in) throws CorruptArchiveException {
    List<Generation.Part> parts = new ArrayList<>();
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (int i = in.count("part count"); i > 0; i--) {
      int partId = in.count("part id");
      if (!ids.add(partId)) {
        throw in.corrupt("manifest names part " + partId + " twice");
      }
      long length = in.u64("part committed length");
      if (length < FormatConstants.FILE_HEADER_BYTES) {
        throw in.corrupt("part " + partId + " committed length " + length + " is too small");
      }
      parts.add(new Generation.Part(partId, length));
    }
    return parts;
  }

  /**
   * The segments, each id once, each with its directory; the directories' pointers are bounded
   * together (FORMAT.md "Limits").
   */
  private static List<Manifest.SegmentRef> segments(ByteReader in, boolean placed)
      throws CorruptArchiveException {
    List<Manifest.SegmentRef> segments = new ArrayList<>();
    long[] pointers = {0}; // of every directory so far
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (int i = in.count("segment count"); i > 0; i--) {
      int segmentId = in.count("segment id");
      if (!ids.add(segmentId)) {
        throw in.corrupt("manifest names segment " + segmentId + " twice");
      }
      long entries = in.u64("entry count");
      long tombstones = in.u64("tombstone count");
      long catalogLength = in.u64("catalog length");
      long fileLength = placed ? in.u64("segment file length") : 0;
      Manifest.SegmentRef segment =
          new Manifest.SegmentRef(
              segmentId,
              entries,
              tombstones,
              catalogLength,
              readDirectory(in, placed, pointers),
              fileLength);
      checkPlacement(in, segment);
      segments.add(segment);
    }
    return segments;
  }

  private static List<Generation.Change> history(ByteReader in) throws CorruptArchiveException {
    List<Generation.Change> history = new ArrayList<>();
    for (int i = in.count("history count"); i > 0; i--) {
      history.add(
          new Generation.Change(
              in.u64("history generation"),
              in.u64("history time"),
              in.string16("history operation"),
              in.u64("history entries")));
    }
    return history;
  }

  /** The id marks, refused if the manifest names an id above them. */
  private static Manifest.IdMarks checkMarks(
      ByteReader in,
      Manifest.IdMarks marks,
      List<Generation.Part> parts,
      List<Manifest.SegmentRef> segments)
      throws CorruptArchiveException {
    if (marks == null) {
      return null;
    }
    for (Generation.Part p : parts) {
      if (p.partId() > marks.parts()) {
        throw in.corrupt("part " + p.partId() + " is above the part id mark " + marks.parts());
      }
    }
    for (Manifest.SegmentRef s : segments) {
      if (s.segmentId() > marks.segments()) {
        throw in.corrupt(
            "segment " + s.segmentId() + " is above the segment id mark " + marks.segments());
      }
    }
    return marks;
  }

  /**
   * Every section of a segment file lies between the file's header and footer, the catalog first
   * and the buckets after it, so a reader sizes nothing by a length its file cannot hold.
   */
  private static void checkPlacement(ByteReader in, Manifest.SegmentRef s)
      throws CorruptArchiveException {
    long body = s.fileLength() - FormatConstants.FOOTER_BYTES;
    long catalogEnd = FormatConstants.FILE_HEADER_BYTES + s.catalogLength();
    if (s.inSegmentFile() && (s.catalogLength() < 0 || catalogEnd > body || body < 0)) {
      throw in.corrupt(
          "segment "
              + s.segmentId()
              + ": catalog of "
              + s.catalogLength()
              + " bytes does not fit its file of "
              + s.fileLength());
    }
    // A directory without a segment file has offsets 0: its table was made so (versions 1–3).
    int outside = s.inSegmentFile() ? s.directory().firstBucketOutside(catalogEnd, body) : -1;
    if (outside >= 0) {
      BucketDescriptor b = s.directory().bucket(outside);
      throw in.corrupt(
          "segment "
              + s.segmentId()
              + ": bucket "
              + b.bucketNo()
              + " at offset "
              + b.offset()
              + " of "
              + b.fileLength()
              + " bytes does not fit its file");
    }
  }

  /** A dictionary in a segment file lies inside the file of a segment the manifest lists. */
  private static void checkPlacement(
      ByteReader in, Manifest.DictionaryRef d, List<Manifest.SegmentRef> segments)
      throws CorruptArchiveException {
    if (!d.inSegmentFile()) {
      if (d.offset() != 0) {
        throw in.corrupt("dictionary " + d.dictionaryId() + " in its own file has an offset");
      }
      return;
    }
    Manifest.SegmentRef home =
        segments.stream()
            .filter(s -> s.segmentId() == d.segmentId() && s.inSegmentFile())
            .findFirst()
            .orElse(null);
    boolean fits =
        home != null
            && d.offset() >= FormatConstants.FILE_HEADER_BYTES
            && d.length() >= 0
            && d.length() <= home.fileLength() - FormatConstants.FOOTER_BYTES - d.offset();
    if (!fits) {
      throw in.corrupt(
          "dictionary "
              + d.dictionaryId()
              + " at offset "
              + d.offset()
              + " of segment "
              + d.segmentId()
              + " does not fit "
              + (home == null ? "any segment file the manifest lists" : "its file"));
    }
  }

  /**
   * A segment's directory, expanded into its pointers; {@code pointers[0]} counts those of the
   * manifest's directories so far, which together may not pass {@link
   * FormatConstants#MAX_MANIFEST_POINTERS} (FORMAT.md "Directory").
   */
  private static SegmentDirectory readDirectory(ByteReader in, boolean placed, long[] pointers)
      throws CorruptArchiveException {
    int g = in.u8("global depth");
    if (g > FormatConstants.MAX_GLOBAL_DEPTH) {
      throw in.corrupt("global depth " + g + " is over " + FormatConstants.MAX_GLOBAL_DEPTH);
    }
    pointers[0] += 1L << g;
    if (pointers[0] > FormatConstants.MAX_MANIFEST_POINTERS) {
      throw in.corrupt(
          "directories of "
              + pointers[0]
              + " pointers in all, over the 16777216 (2^24) of a manifest");
    }
    return readDirectory(in, placed, g);
  }

  private static SegmentDirectory readDirectory(ByteReader in, boolean placed, int g)
      throws CorruptArchiveException {
    int bucketCount = in.count("bucket count");
    byte[] table = descriptorTable(in, placed, bucketCount, g);
    // Tight loops over the manifest's bytes, not a read call a field: a first open runs them in a
    // cold JVM, where each call costs (FORMAT.md "Directory"; BENCHMARKS "Scale").
    int[] pointers = new int[1 << g];
    int leafCount = in.count("leaf count");
    byte[] bytes = in.array();
    int at = in.arrayPosition();
    long leavesAt = in.fileOffset();
    in.skip(checkedBytes(in, leafCount, LEAF_BYTES, "directory leaves"), "directory leaves");
    int filled = 0; // pointers set so far
    for (int leaf = 0; leaf < leafCount; leaf++, at += LEAF_BYTES) {
      int depth = bytes[at] & 0xFF;
      int bucket = ByteReader.getU32(bytes, at + 1);
      int span = depth > g ? -1 : 1 << (g - depth);
      boolean validBucket =
          bucket == NO_BUCKET
              || (bucket >= 0
                  && bucket < bucketCount
                  && (table[
                              bucket * SegmentDirectory.DESCRIPTOR_BYTES
                                  + SegmentDirectory.LOCAL_DEPTH_AT]
                          & 0xFF)
                      == depth);
      if (span < 0 || !validBucket || filled + span > pointers.length || filled % span != 0) {
        throw new CorruptArchiveException(
            in.file(),
            leavesAt + (long) leaf * LEAF_BYTES,
            "directory leaf (depth " + depth + ", bucket " + bucket + ") does not fit");
      }
      for (int end = filled + span; filled < end; filled++) {
        pointers[filled] = bucket;
      }
    }
    if (filled != pointers.length) {
      throw in.corrupt("directory leaves cover " + filled + " of " + pointers.length + " pointers");
    }
    return SegmentDirectory.ofTable(g, table, pointers);
  }

  /**
   * The bucket descriptors as a table of {@link SegmentDirectory#DESCRIPTOR_BYTES}-byte rows
   * (versions 1–3 store no offset: their rows get 0), each checked: numbers and counts are u32
   * below 2^31, local depths at most {@code g}.
   */
  private static byte[] descriptorTable(ByteReader in, boolean placed, int count, int g)
      throws CorruptArchiveException {
    int stored = placed ? SegmentDirectory.DESCRIPTOR_BYTES : DESCRIPTOR_BYTES_V1;
    long tableAt = in.fileOffset();
    int from = in.arrayPosition();
    in.skip(checkedBytes(in, count, stored, "bucket descriptors"), "bucket descriptors");
    byte[] bytes = in.array();
    byte[] table = new byte[count * SegmentDirectory.DESCRIPTOR_BYTES];
    if (placed) {
      System.arraycopy(bytes, from, table, 0, table.length);
    } else {
      for (int b = 0; b < count; b++) {
        System.arraycopy(
            bytes, from + b * stored, table, b * SegmentDirectory.DESCRIPTOR_BYTES, stored);
      }
    }
    for (int b = 0, row = 0; b < count; b++, row += SegmentDirectory.DESCRIPTOR_BYTES) {
      // The high bytes of bucket number, key count and meta length: each below 2^31.
      int high = table[row + 3] | table[row + 8] | table[row + 12];
      int depth = table[row + SegmentDirectory.LOCAL_DEPTH_AT] & 0xFF;
      if (high < 0 || depth > g) {
        String number = Integer.toUnsignedString(ByteReader.getU32(table, row));
        throw new CorruptArchiveException(
            in.file(),
            tableAt + (long) b * stored,
            depth > g
                ? "bucket " + number + " local depth " + depth + " > global " + g
                : "bucket descriptor "
                    + b
                    + " has a number or count over 2^31 (number "
                    + number
                    + ", key count "
                    + Integer.toUnsignedString(ByteReader.getU32(table, row + 5))
                    + ", meta length "
                    + Integer.toUnsignedString(ByteReader.getU32(table, row + 9))
                    + ")");
      }
    }
    return table;
  }

  /** {@code count * size} bytes, refused if the manifest does not hold them. */
  private static int checkedBytes(ByteReader in, int count, int size, String what)
      throws CorruptArchiveException {
    long bytes = (long) count * size;
    if (bytes > in.remaining()) {
      throw in.corrupt(count + " " + what + " need " + bytes + " bytes, only " + in.remaining());
    }
    return (int) bytes;
  }
}
