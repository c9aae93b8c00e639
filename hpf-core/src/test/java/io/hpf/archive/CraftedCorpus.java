package io.hpf.archive;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Crafted archives that Java and Python must judge alike, written into a directory with {@code
 * expected.tsv}: per archive, a line {@code NAME<TAB>ok} or {@code NAME<TAB>problem<TAB>TEXT}, TEXT
 * being what the verdict of each verifier must contain. {@link CraftedCorpusTest} checks the Java
 * verifier against it; {@code python/tests/test_crafted.py} runs this class ({@code main(OUT_DIR)})
 * and checks the Python one.
 */
public final class CraftedCorpus {
  private CraftedCorpus() {}

  /** A case: the archive's directory name and the verdict line. */
  public record Case(String name, String verdict) {}

  public static void main(String[] args) throws IOException {
    write(Path.of(args[0]));
  }

  /** Writes every case under {@code dir} (made if missing); returns them. */
  public static List<Case> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Case> cases = new ArrayList<>();
    new CraftedArchive(dir.resolve("plain.hpf"))
        .addPlain("d/x", bytes("x"))
        .addPlain("d/y", bytes("y"))
        .commit();
    cases.add(new Case("plain.hpf", "ok"));
    // Made before writers refused it: an entry that is also a directory of another.
    new CraftedArchive(dir.resolve("name-clash.hpf"))
        .addPlain("d/x", bytes("the file d/x"))
        .addPlain("d/x-1", bytes("a neighbour between the file and its directory"))
        .addPlain("d/x/y", bytes("under d/x"))
        .addPlain("e", bytes("e"))
        .commit();
    cases.add(new Case("name-clash.hpf", "problem\tentry 'd/x' is also a directory (of 'd/x/y')"));
    // FORMAT.md "Entry": the reserved u16 at offset 46 is 0; only zstd entries name a dictionary.
    byte[] plain = bytes("plain content");
    int crc = io.hpf.internal.format.EntryCodec.crc32c(plain, 0, plain.length);
    new CraftedArchive(dir.resolve("entry-reserved.hpf"))
        .add("x", io.hpf.archive.model.Codec.NONE, plain.length, plain, crc, h -> h[46] = 1)
        .commit();
    cases.add(
        new Case(
            "entry-reserved.hpf", "problem\treserved field at entry header offset 46 is 1, not 0"));
    new CraftedArchive(dir.resolve("dictionary-on-raw.hpf"))
        .add("x", io.hpf.archive.model.Codec.NONE, plain.length, plain, crc, h -> h[12] = 1)
        .commit();
    cases.add(
        new Case(
            "dictionary-on-raw.hpf",
            "problem\tdictionary id 1 on an entry stored with none (only zstd entries name a"
                + " dictionary)"));
    // FORMAT.md "Codecs": zstd content is one frame that declares its content size.
    byte[] text = bytes("zstd content, zstd content, zstd content, zstd content.");
    int textCrc = io.hpf.internal.format.EntryCodec.crc32c(text, 0, text.length);
    byte[] noSize;
    try (com.github.luben.zstd.ZstdCompressCtx zstd = new com.github.luben.zstd.ZstdCompressCtx()) {
      zstd.setContentSize(false);
      noSize = zstd.compress(text);
    }
    new CraftedArchive(dir.resolve("zstd-no-content-size.hpf"))
        .add("z", io.hpf.archive.model.Codec.ZSTD, text.length, noSize, textCrc)
        .commit();
    cases.add(
        new Case(
            "zstd-no-content-size.hpf",
            "problem\tzstd frame declares no content size (the header says "
                + text.length
                + " bytes)"));
    byte[] frame = com.github.luben.zstd.Zstd.compress(text);
    byte[] twoFrames = java.util.Arrays.copyOf(frame, frame.length * 2);
    System.arraycopy(frame, 0, twoFrames, frame.length, frame.length);
    new CraftedArchive(dir.resolve("zstd-two-frames.hpf"))
        .add("z", io.hpf.archive.model.Codec.ZSTD, text.length, twoFrames, textCrc)
        .commit();
    cases.add(
        new Case(
            "zstd-two-frames.hpf",
            "problem\t" + frame.length + " bytes after the zstd frame (one frame only)"));
    // A zstd bomb: a frame of 4 GiB of zeros (32 KB) where the header claims 1 KiB; as an entry
    // and as a group. Memory is never sized by the frame's claim.
    byte[] bomb = zeros(4L << 30);
    int kibCrc = io.hpf.internal.format.EntryCodec.crc32c(new byte[1024], 0, 1024);
    new CraftedArchive(dir.resolve("zstd-bomb-entry.hpf"))
        .add("bomb", io.hpf.archive.model.Codec.ZSTD, 1024, bomb, kibCrc)
        .commit();
    cases.add(
        new Case(
            "zstd-bomb-entry.hpf",
            "problem\tzstd frame declares " + (4L << 30) + " bytes, the header 1024"));
    new CraftedArchive(dir.resolve("zstd-bomb-group.hpf"))
        .addGroup(io.hpf.archive.model.Codec.ZSTD, 1024, bomb, kibCrc, "a", "b")
        .commit();
    cases.add(
        new Case(
            "zstd-bomb-group.hpf",
            "problem\tzstd frame declares " + (4L << 30) + " bytes, the header 1024"));
    // A manifest naming one segment twice (a crafted one named it 100,000 times: verify ran for
    // minutes, growing faster than linearly).
    io.hpf.store.LocalStorage twice =
        new CraftedArchive(dir.resolve("segment-twice.hpf")).addPlain("x", plain).commit();
    CraftedV7.recommit(
        twice,
        m -> {
          List<io.hpf.internal.manifest.Manifest.SegmentRef> doubled =
              new ArrayList<>(m.segments());
          doubled.addAll(m.segments());
          return doubled;
        },
        new io.hpf.internal.manifest.Manifest.IdMarks(1, 1));
    cases.add(new Case("segment-twice.hpf", "problem\tmanifest names segment 1 twice"));
    CraftedV7.write(dir, cases);
    CraftedChunks.write(dir, cases);
    CraftedV7.writeBounds(dir, cases);
    CraftedV7.writeForbidden(dir, cases);
    CraftedV7.writeBucketClaim(dir, cases);
    CraftedDirectories.write(dir, cases);
    List<String> lines = new ArrayList<>();
    for (Case c : cases) {
      lines.add(c.name() + "\t" + c.verdict());
    }
    Files.write(dir.resolve("expected.tsv"), lines, StandardCharsets.UTF_8);
    return cases;
  }

  /**
   * One zstd frame of {@code count} zero bytes (a multiple of 128 KiB), written by hand as RFC 8878
   * lays it out: a header declaring the content size, then run-length blocks of 128 KiB, 4 bytes
   * each; never decoded here.
   */
  private static byte[] zeros(long count) {
    int blockBytes = 128 << 10;
    int blocks = (int) (count / blockBytes);
    java.nio.ByteBuffer frame =
        java.nio.ByteBuffer.allocate(14 + 4 * blocks).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    frame.putInt(0xFD2FB528); // magic
    frame.put((byte) 0xC0); // frame header descriptor: an 8-byte content size, a window
    frame.put((byte) (7 << 3)); // window descriptor: 2^(10 + 7) = 128 KiB
    frame.putLong(count); // frame content size
    for (int b = 0; b < blocks; b++) {
      int header = (b == blocks - 1 ? 1 : 0) | (1 << 1) | (blockBytes << 3); // last, RLE, size
      frame.put((byte) header).put((byte) (header >>> 8)).put((byte) (header >>> 16));
      frame.put((byte) 0); // the byte repeated
    }
    return frame.array();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
