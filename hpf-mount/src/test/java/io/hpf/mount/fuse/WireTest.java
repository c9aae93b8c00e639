package io.hpf.mount.fuse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The layouts written to the kernel against {@code linux/fuse.h}: the sizes of its structures and
 * where their fields lie. The mount tests prove the whole exchange; this names the field that
 * broke.
 */
class WireTest {
  private static ByteBuffer buffer() {
    return ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static final Attributes FILE =
      Attributes.file(77, 5000, 0100644, 1_700_000_000_123L, 1000, 100);

  @Test
  void attributesAreStructFuseAttr() {
    ByteBuffer out = buffer();
    Wire.putAttributes(out, FILE);
    assertEquals(88, out.position(), "sizeof(struct fuse_attr)");
    assertEquals(77, out.getLong(0)); // ino
    assertEquals(5000, out.getLong(8)); // size
    assertEquals(10, out.getLong(16)); // blocks of 512 bytes
    assertEquals(1_700_000_000L, out.getLong(32)); // mtime
    assertEquals(123_000_000, out.getInt(52)); // mtimensec
    assertEquals(0100644, out.getInt(60)); // mode
    assertEquals(1, out.getInt(64)); // nlink
    assertEquals(1000, out.getInt(68)); // uid
    assertEquals(100, out.getInt(72)); // gid
    assertEquals(4096, out.getInt(80)); // blksize
  }

  @Test
  void anEntryIsStructFuseEntryOut() {
    ByteBuffer out = buffer();
    Wire.putEntry(out, new ReadOnlyFileSystem.Entry(9, FILE), 3600);
    assertEquals(128, out.position(), "sizeof(struct fuse_entry_out)");
    assertEquals(9, out.getLong(0)); // nodeid
    assertEquals(0, out.getLong(8)); // generation
    assertEquals(3600, out.getLong(16)); // entry_valid
    assertEquals(3600, out.getLong(24)); // attr_valid
    assertEquals(77, out.getLong(40)); // attr.ino

    ByteBuffer none = buffer();
    Wire.putEntry(none, new ReadOnlyFileSystem.Entry(0, FILE), 3600);
    assertEquals(0, none.getLong(16), "no node: nothing for the kernel to keep");
  }

  @Test
  void aDirentIsPaddedToEightBytes() {
    byte[] name = "abc".getBytes(StandardCharsets.UTF_8);
    ByteBuffer out = buffer();
    out.put(30, (byte) 0x7f); // what a padding byte must overwrite
    Wire.putDirent(out, 77, 5, Attributes.directory(77, 0, 0, 0).direntType(), name);
    assertEquals(32, out.position(), "24 bytes, the name, zeros to a multiple of 8");
    assertEquals(32, Wire.direntLength(3));
    assertEquals(24 + 8, Wire.direntLength(8));
    assertEquals(24 + 16, Wire.direntLength(9));
    assertEquals(77, out.getLong(0)); // ino
    assertEquals(5, out.getLong(8)); // off: where the next listing starts
    assertEquals(3, out.getInt(16)); // namelen
    assertEquals(4, out.getInt(20)); // DT_DIR
    assertEquals('a', out.get(24));
    for (int i = 27; i < 32; i++) {
      assertEquals(0, out.get(i), "padding at " + i);
    }
    assertEquals(8, FILE.direntType(), "DT_REG");
  }
}
