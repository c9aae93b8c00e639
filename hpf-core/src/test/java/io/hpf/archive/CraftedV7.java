package io.hpf.archive;

import io.hpf.archive.model.Codec;
import io.hpf.internal.format.ChunkedEncoder;
import io.hpf.internal.format.ContentCompressor;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The crafted cases of format version 7 (FORMAT.md "Chunked content", "Manifest" id marks) and of
 * the manifest's bounds ("Limits"), for {@link CraftedCorpus}: chunked content whose chunks, table
 * or header lie, a manifest whose id mark is below an id it names, manifests too large to read.
 */
final class CraftedV7 {
  private static final int CHUNK = 1 << 16;

  private CraftedV7() {}

  static void write(Path dir, List<CraftedCorpus.Case> cases) throws IOException {
    byte[] raw = new byte[17 * CHUNK + 100]; // over 1 MiB: read a chunk at a time
    for (int i = 0; i < raw.length; i++) {
      raw[i] = (byte) (i * 31 + i / 1000);
    }
    int crc = EntryCodec.crc32c(raw, 0, raw.length);
    byte[] stored;
    try (ContentCompressor none = new ContentCompressor(Codec.NONE, null, 3)) {
      stored = ChunkedEncoder.encode(none, raw, raw.length, 16).stored();
    }
    Consumer<byte[]> chunked =
        h -> {
          h[9] = FormatConstants.ENTRY_FLAG_CHUNKED;
          h[46] = 16;
        };
    add(dir, "chunked.hpf", raw, stored, crc, chunked);
    cases.add(new CraftedCorpus.Case("chunked.hpf", "ok"));
    byte[] damaged = stored.clone();
    damaged[2 * CHUNK + 7] ^= 1;
    add(dir, "chunk-damaged.hpf", raw, damaged, crc, chunked);
    cases.add(
        new CraftedCorpus.Case(
            "chunk-damaged.hpf",
            "problem\tchunk 2 (raw bytes 131072 to 196608): checksum mismatch"));
    byte[] crossed = stored.clone();
    ByteBuffer.wrap(crossed).order(ByteOrder.LITTLE_ENDIAN).putLong(raw.length + 12, 5);
    add(dir, "chunk-slot-crossed.hpf", raw, crossed, crc, chunked);
    cases.add(
        new CraftedCorpus.Case(
            "chunk-slot-crossed.hpf",
            "problem\tchunk 1 stored at [65536, 5) does not fit the " + raw.length));
    add(dir, "chunk-size-over.hpf", raw, stored, crc, chunked.andThen(h -> h[46] = 21));
    cases.add(
        new CraftedCorpus.Case(
            "chunk-size-over.hpf", "problem\tchunk size 2^21 is outside 2^12 to 2^20"));
    byte[] noTable = java.util.Arrays.copyOf(stored, raw.length);
    add(dir, "chunk-no-table.hpf", raw, noTable, crc, chunked);
    cases.add(
        new CraftedCorpus.Case(
            "chunk-no-table.hpf",
            "problem\timpossible lengths: raw " + raw.length + ", stored " + raw.length));
    add(dir, "group-and-chunked.hpf", raw, stored, crc, chunked.andThen(h -> h[9] = 3));
    cases.add(
        new CraftedCorpus.Case(
            "group-and-chunked.hpf",
            "problem\tentry flags 3 (bit 0 for a group or bit 1 for chunks, not both)"));
    // Content in one piece (versions 1 to 6) over 1 MiB whose checksum is wrong: a read from an
    // offset must fail before it hands out a byte.
    byte[] big = new byte[(2 << 20) + 3];
    System.arraycopy(raw, 0, big, 0, raw.length);
    add(dir, "one-piece-damaged.hpf", big, big, crc, h -> {});
    cases.add(
        new CraftedCorpus.Case("one-piece-damaged.hpf", "problem\tcontent checksum mismatch"));
    LocalStorage marked =
        new CraftedArchive(dir.resolve("part-above-mark.hpf")).addPlain("x", raw).commit();
    lowerPartIdMark(marked);
    cases.add(
        new CraftedCorpus.Case(
            "part-above-mark.hpf", "problem\tpart 1 is above the part id mark 0"));
  }

  /**
   * Manifests over the format's bounds (FORMAT.md "Limits", "Directory"): one of 16 MiB + 1 bytes,
   * refused by its length before it is read; a directory of global depth 24 (one leaf of 5 bytes,
   * 2^24 pointers when expanded) beside the archive's own: 2^24 + 1 pointers in all.
   */
  static void writeBounds(Path dir, List<CraftedCorpus.Case> cases) throws IOException {
    LocalStorage big =
        new CraftedArchive(dir.resolve("manifest-too-large.hpf"))
            .addPlain("x", new byte[1])
            .commit();
    try (java.nio.channels.FileChannel f =
        java.nio.channels.FileChannel.open(
            big.directory().resolve(io.hpf.internal.format.FileNames.manifestFileName(2)),
            java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE)) {
      f.write(ByteBuffer.allocate(1), FormatConstants.MAX_MANIFEST_BYTES); // sparse
    }
    cases.add(
        new CraftedCorpus.Case(
            "manifest-too-large.hpf",
            "problem\tmanifest of 16777217 bytes is over the 16 MiB (16777216 bytes) a manifest"
                + " may have"));
    LocalStorage deep =
        new CraftedArchive(dir.resolve("directories-too-deep.hpf"))
            .addPlain("x", new byte[1])
            .commit();
    int[] none = new int[1 << FormatConstants.MAX_GLOBAL_DEPTH];
    java.util.Arrays.fill(none, -1);
    io.hpf.internal.index.SegmentDirectory empty =
        new io.hpf.internal.index.SegmentDirectory(
            FormatConstants.MAX_GLOBAL_DEPTH, List.of(), none);
    recommit(
        deep,
        m -> {
          List<Manifest.SegmentRef> more = new ArrayList<>(m.segments());
          more.add(new Manifest.SegmentRef(2, 0, 0, 0, empty, 24));
          return more;
        },
        new Manifest.IdMarks(1, 2));
    cases.add(
        new CraftedCorpus.Case(
            "directories-too-deep.hpf",
            "problem\tdirectories of 16777217 pointers in all, over the 16777216 (2^24) of a"
                + " manifest"));
  }

  /**
   * What a verifier must not pass (issue 28): an attribute key twice, in an entry header and in a
   * group member, and a member mode over 32 bits.
   */
  static void writeForbidden(Path dir, List<CraftedCorpus.Case> cases) throws IOException {
    byte[] x = {'x'};
    int crc = EntryCodec.crc32c(x, 0, 1);
    Map<String, String> two = new java.util.TreeMap<>(Map.of("k", "v", "l", "w"));
    new CraftedArchive(dir.resolve("attribute-twice.hpf"))
        .add(
            "a",
            Codec.NONE,
            1,
            x,
            crc,
            two,
            h -> h[h.length - 10] = 'k') // the second key, "l": before its value and the CRC
        .commit();
    cases.add(
        new CraftedCorpus.Case(
            "attribute-twice.hpf", "problem\tattribute key 'k' twice (each key once)"));
    new CraftedArchive(dir.resolve("member-attribute-twice.hpf"))
        .addGroup(concat(member("a", x, 0644, "k", "v", "k", "w"), member("b", x, 0644)), "a", "b")
        .commit();
    cases.add(
        new CraftedCorpus.Case(
            "member-attribute-twice.hpf", "problem\tattribute key 'k' twice (each key once)"));
    // A name whose bytes are not UTF-8 ("d/" then 0xFF): listed and read like any other, refused
    // by verify and extract (FORMAT.md "Entry names"). U+DCFF stands for the byte 0xFF.
    new CraftedArchive(dir.resolve("name-not-utf8.hpf"))
        .addPlain("d/\udcff", x)
        .addPlain("e", x)
        .commit();
    cases.add(
        new CraftedCorpus.Case(
            "name-not-utf8.hpf",
            "problem\tentry name 'd/\\xff' is not allowed: not valid UTF-8 (byte 0xff at character"
                + " 2)"));
    new CraftedArchive(dir.resolve("member-mode-over.hpf"))
        .addGroup(concat(member("a", x, 1L << 33), member("b", x, 0644)), "a", "b")
        .commit();
    cases.add(
        new CraftedCorpus.Case(
            "member-mode-over.hpf", "problem\tmember mode 8589934592 is over 32 bits"));
  }

  /** A group member as FORMAT.md "Group" lays it out; attributes as key, value pairs. */
  private static byte[] member(String name, byte[] content, long mode, String... attributes) {
    io.hpf.internal.format.ByteWriter out = new io.hpf.internal.format.ByteWriter(64);
    byte[] n = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.varLong(n.length).bytes(n).varLong(content.length).zigZag(0).varLong(mode);
    out.varLong(attributes.length / 2);
    for (String s : attributes) {
      byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      out.varLong(b.length).bytes(b);
    }
    return out.bytes(content).toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /**
   * A bucket whose header claims 2,147,483,548 records (its meta CRC32C and the file's footer made
   * again): refused against the manifest's count before anything is sized by the claim.
   */
  static void writeBucketClaim(Path dir, List<CraftedCorpus.Case> cases) throws IOException {
    LocalStorage claims =
        new CraftedArchive(dir.resolve("bucket-claims.hpf")).addPlain("x", new byte[1]).commit();
    Manifest m = ManifestStore.readNewest(claims, claims.list());
    io.hpf.internal.index.BucketDescriptor d = m.segments().get(0).directory().buckets().get(0);
    int at = (int) d.offset();
    int meta = d.metaLength();
    rewrite(
        claims.directory().resolve(io.hpf.internal.format.FileNames.segmentFileName(1)),
        (bytes, b) -> {
          b.putInt(at + 16, 2_147_483_548);
          b.putInt(at + meta - 4, EntryCodec.crc32c(bytes, at + 16, meta - 4 - 16));
        });
    cases.add(
        new CraftedCorpus.Case(
            "bucket-claims.hpf",
            "problem\tbucket has 2147483548 records of 32 bytes, manifest expects 1 of 32"));
  }

  private static void add(
      Path dir, String name, byte[] raw, byte[] stored, int crc, Consumer<byte[]> patch)
      throws IOException {
    new CraftedArchive(dir.resolve(name))
        .add("big", Codec.NONE, raw.length, stored, crc, patch)
        .commit();
  }

  /**
   * Sets the newest manifest's part id mark to 0 in its bytes (a writer never writes a mark below
   * an id it names), its footer's CRC32C made again.
   */
  private static void lowerPartIdMark(LocalStorage storage) throws IOException {
    Manifest m = ManifestStore.readNewest(storage, storage.list());
    Path file =
        storage
            .directory()
            .resolve(io.hpf.internal.format.FileNames.manifestFileName(m.generation()));
    // header, generation, time, operation, hash algorithm and reserved, capacity, settings
    int at = 16 + 8 + 8 + 2 + m.operation().length() + 4 + 4 + 10;
    rewrite(file, (bytes, b) -> b.putInt(at, 0));
  }

  /** Changes a file's bytes, then makes its footer's CRC32C again (FORMAT.md "File footer"). */
  private static void rewrite(Path file, java.util.function.BiConsumer<byte[], ByteBuffer> change)
      throws IOException {
    byte[] bytes = java.nio.file.Files.readAllBytes(file);
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    change.accept(bytes, b);
    b.putInt(bytes.length - 4, EntryCodec.crc32c(bytes, 0, bytes.length - 8));
    java.nio.file.Files.write(file, bytes);
  }

  /** Commits the next generation of {@code storage}'s manifest with other segments and marks. */
  static void recommit(
      LocalStorage storage,
      java.util.function.Function<Manifest, List<Manifest.SegmentRef>> segments,
      Manifest.IdMarks marks)
      throws IOException {
    Manifest m = ManifestStore.readNewest(storage, storage.list());
    ManifestStore.commit(
        storage,
        new Manifest(
            m.generation() + 1,
            m.commitMillis(),
            "crafted",
            m.bucketCapacity(),
            m.writerSettings(),
            m.liveEntries(),
            m.liveEntryBytes(),
            m.dictionaries(),
            m.parts(),
            new ArrayList<>(segments.apply(m)),
            m.history(),
            marks));
  }
}
