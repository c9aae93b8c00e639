package io.hpf.internal.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.UnsupportedVersionException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FormatUnitsTest {
  /**
   * A group's members share its stored content exactly (EntryInfo.storedShare): its entry less the
   * header of a group (the fixed part and its CRC32C) and the content's CRC32C.
   */
  @Test
  void aGroupsMembersShareItsStoredContentExactly() {
    long stored = 1000;
    long entryLength = FormatConstants.ENTRY_FIXED_HEADER_BYTES + 4 + stored + 4;
    long shares = 0;
    for (int i = 0; i < 3; i++) {
      shares +=
          new io.hpf.archive.model.EntryInfo(
                  "m" + i, false, 10, 10, Codec.LZ4, 0, 0, 0, Map.of(), 1, 16, entryLength, i, 3)
              .storedShare();
    }
    assertEquals(stored, shares);
  }

  @Test
  void nameHashIsStandardXxh64() {
    // Reference values of XXH64 with seed 0 (from the xxHash project's test vectors).
    assertEquals(0xEF46DB3751D8E999L, NameHash.of(""));
    assertEquals(0xD24EC4F1A98C6E5BL, NameHash.of("a"));
    assertEquals(0x44BC2CF5AD770999L, NameHash.of("abc"));
  }

  @Test
  void namesNormalize() {
    assertEquals("a/b/c", EntryNames.normalize("a//b/./c/"));
    assertEquals("a/b", EntryNames.normalize("./a/b"));
    assertEquals("ünï/日本", EntryNames.normalize("ünï/日本"));
    assertTrue(EntryNames.isNormal("a/b"));
    assertFalse(EntryNames.isNormal("a//b"));
  }

  @Test
  void unsafeNamesAreRejectedWithTheReason() {
    for (String bad :
        new String[] {
          "../x", "a/../../x", "/etc/passwd", "C:/x", "c:x", "", ".", "./", "a\0b", "\uD800"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> EntryNames.normalize(bad), bad);
      assertTrue(e.getMessage().contains("invalid entry name"), e.getMessage());
    }
    String tooLong = "x".repeat(70_000);
    assertThrows(IllegalArgumentException.class, () -> EntryNames.normalize(tooLong));
  }

  @Test
  void entryHeaderRoundTripsAndRejectsDamage() throws Exception {
    byte[] name = "dir/ファイル.txt".getBytes(StandardCharsets.UTF_8);
    ByteWriter header =
        EntryCodec.encodeHeader(name, Codec.ZSTD, 3, 1000, 400, -5, 0755, Map.of("owner", "ops"));
    byte[] bytes = header.toByteArray();
    EntryHeader h = EntryCodec.parseHeader("part", 16, bytes, 0, bytes.length);
    assertEquals("dir/ファイル.txt", h.name());
    assertEquals(Codec.ZSTD, h.codec());
    assertEquals(3, h.dictionaryId());
    assertEquals(1000, h.rawLength());
    assertEquals(400, h.storedLength());
    assertEquals(-5, h.mtimeMillis());
    assertEquals(0755, h.mode());
    assertEquals(Map.of("owner", "ops"), h.attributes());
    assertEquals(bytes.length + 400 + 4, h.entryLength());
    for (int i = 0; i < bytes.length; i++) {
      byte[] damaged = bytes.clone();
      damaged[i] ^= 0x10;
      int at = i;
      CorruptArchiveException e =
          assertThrows(
              CorruptArchiveException.class,
              () -> EntryCodec.parseHeader("part-x", 16, damaged, 0, damaged.length),
              "byte " + at);
      assertTrue(e.getMessage().startsWith("part-x at offset "), e.getMessage());
    }
  }

  @Test
  void attributesAreWrittenInOneOrderWhateverTheMapIterates() throws Exception {
    java.util.LinkedHashMap<String, String> one = new java.util.LinkedHashMap<>();
    java.util.LinkedHashMap<String, String> other = new java.util.LinkedHashMap<>();
    String[] keys = {"zeta", "Alpha", "é", "\uD83D\uDE00", "\uFFFD", "alpha", "a"};
    for (String key : keys) {
      one.put(key, "v-" + key);
    }
    for (int i = keys.length - 1; i >= 0; i--) {
      other.put(keys[i], "v-" + keys[i]);
    }
    byte[] name = "n".getBytes(StandardCharsets.UTF_8);
    byte[] a = EntryCodec.encodeHeader(name, Codec.NONE, 0, 0, 0, 0, 0644, one).toByteArray();
    byte[] b = EntryCodec.encodeHeader(name, Codec.NONE, 0, 0, 0, 0, 0644, other).toByteArray();
    assertArrayEquals(a, b);
    EntryHeader h = EntryCodec.parseHeader("f", 0, a, 0, a.length);
    java.util.List<String> stored = new java.util.ArrayList<>(h.attributes().keySet());
    java.util.List<byte[]> utf8 = new java.util.ArrayList<>();
    stored.forEach(k -> utf8.add(k.getBytes(StandardCharsets.UTF_8)));
    for (int i = 1; i < utf8.size(); i++) {
      assertTrue(
          java.util.Arrays.compareUnsigned(utf8.get(i - 1), utf8.get(i)) < 0,
          "keys out of UTF-8 byte order: " + stored);
    }
    assertEquals(keys.length, stored.size());
  }

  @Test
  void byteReaderReportsFileAndOffsetInsteadOfOverrunning() {
    ByteReader in = new ByteReader("f", 100, new byte[] {1, 2, 3});
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class, () -> in.u64("count"));
    assertEquals("f at offset 100: count needs 8 bytes, only 3 left", e.getMessage());
  }

  @Test
  void varintsRoundTrip() throws Exception {
    long[] values = {0, 1, 127, 128, 300, Integer.MAX_VALUE, Long.MAX_VALUE, -1, Long.MIN_VALUE};
    ByteWriter out = new ByteWriter();
    for (long v : values) {
      out.varLong(v).zigZag(v);
    }
    ByteReader in = new ByteReader("t", 0, out.toByteArray());
    for (long v : values) {
      assertEquals(v, in.varLong("v"));
      assertEquals(v, in.zigZag("z"));
    }
  }

  @Test
  void headerAndFooterChecks() {
    ByteWriter out = new ByteWriter();
    FileFraming.writeHeader(out, FormatConstants.KIND_CATALOG);
    out.u32(7);
    FileFraming.writeFooter(out);
    byte[] bytes = out.toByteArray();
    assertThrows(
        CorruptArchiveException.class,
        () -> FileFraming.checkHeader("f", bytes, 0, bytes.length, FormatConstants.KIND_BUCKET));
    byte[] future = bytes.clone();
    future[8] = 9;
    assertThrows(
        UnsupportedVersionException.class,
        () -> FileFraming.checkHeader("f", future, 0, future.length, FormatConstants.KIND_CATALOG));
    byte[] flipped = bytes.clone();
    flipped[17] ^= 1;
    assertThrows(
        CorruptArchiveException.class, () -> FileFraming.checkFooter("f", flipped, flipped.length));
  }
}
