package io.hpf.internal.manifest;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.index.BucketDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes manifest files (FORMAT.md "Manifest"); each segment's directory is {@link
 * DirectoryCodec}'s.
 */
public final class ManifestCodec {
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
      DirectoryCodec.write(out, s.directory());
    }
    out.u32(m.history().size());
    for (Generation.Change h : m.history()) {
      out.u64(h.generation()).u64(h.commitMillis()).string16(h.operation()).u64(h.liveEntries());
    }
    FileFraming.writeFooter(out);
    return out.toByteArray();
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
              DirectoryCodec.read(in, placed, pointers),
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
}
