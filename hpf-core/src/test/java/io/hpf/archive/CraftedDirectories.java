package io.hpf.archive;

import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.index.SegmentDirectory;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Crafted directories of the corpus (FORMAT.md "Directory"): an archive of one bucket (global depth
 * 0) whose manifest's descriptor or leaf was changed, its footer made again.
 */
final class CraftedDirectories {
  private CraftedDirectories() {}

  static void write(Path dir, List<CraftedCorpus.Case> cases) throws IOException {
    String number = Integer.toString(craft(dir, "directory-depth.hpf", table -> table + 4, 1));
    cases.add(
        new CraftedCorpus.Case(
            "directory-depth.hpf", "problem\tbucket " + number + " local depth 1 > global 0"));
    craft(dir, "directory-count.hpf", table -> table + 8, 0x80); // the key count's high byte
    cases.add(
        new CraftedCorpus.Case(
            "directory-count.hpf", "problem\tbucket descriptor 0 has a number or count over 2^31"));
    // The leaf after the table and the leaf count: depth u8, then its bucket index u32.
    craft(dir, "directory-leaf.hpf", table -> table + SegmentDirectory.DESCRIPTOR_BYTES + 5, 1);
    cases.add(
        new CraftedCorpus.Case(
            "directory-leaf.hpf", "problem\tdirectory leaf (depth 0, bucket 1) does not fit"));
  }

  /**
   * Writes an archive of one entry, then sets the manifest byte at {@code at(table)} ({@code
   * table}: where the descriptor table starts) to {@code value}; returns the bucket's number.
   */
  private static int craft(Path dir, String name, IntFunction<Integer> at, int value)
      throws IOException {
    LocalStorage storage =
        new CraftedArchive(dir.resolve(name)).addPlain("x", new byte[1]).commit();
    Manifest m = ManifestStore.readNewest(storage, storage.list());
    BucketDescriptor d = m.segments().get(0).directory().bucket(0);
    byte[] row =
        ByteBuffer.allocate(SegmentDirectory.DESCRIPTOR_BYTES)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(d.bucketNo())
            .put((byte) d.localDepth())
            .putInt(d.keyCount())
            .putInt(d.metaLength())
            .putLong(d.fileLength())
            .putLong(d.offset())
            .array();
    Path file = storage.directory().resolve(FileNames.manifestFileName(m.generation()));
    byte[] bytes = Files.readAllBytes(file);
    int table = indexOf(bytes, row);
    bytes[at.apply(table)] = (byte) value;
    ByteBuffer.wrap(bytes)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(bytes.length - 4, EntryCodec.crc32c(bytes, 0, bytes.length - 8));
    Files.write(file, bytes);
    return d.bucketNo();
  }

  private static int indexOf(byte[] bytes, byte[] pattern) {
    for (int i = 0; i + pattern.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + pattern.length, pattern, 0, pattern.length)) {
        return i;
      }
    }
    throw new IllegalStateException("the descriptor is not in the manifest");
  }
}
