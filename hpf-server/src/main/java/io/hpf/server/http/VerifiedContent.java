package io.hpf.server.http;

import io.hpf.archive.ArchiveFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Raw entries whose content this process has read once and found to match its CRC32C, so that later
 * requests can send them with zero-copy (sendfile) from the part file without reading them again:
 * committed part files never change, so a checked entry stays checked. A lossy table of 64-bit keys
 * (part file and offset): a forgotten entry is only checked again.
 */
final class VerifiedContent {
  /** 8 MiB: a million entries; with fewer slots than hot entries most sends would check again. */
  private static final int SLOTS = 1 << 20;

  private final AtomicLongArray keys = new AtomicLongArray(SLOTS);

  /** Each part file's path hashed once (a few thousand parts at most). */
  private final ConcurrentHashMap<Path, Long> fileHashes = new ConcurrentHashMap<>();

  boolean contains(Path partFile, long offset) {
    long key = key(partFile, offset);
    return keys.get(slot(key)) == key;
  }

  void add(Path partFile, long offset) {
    long key = key(partFile, offset);
    keys.set(slot(key), key);
  }

  private static int slot(long key) {
    return (int) (key ^ (key >>> 32)) & (SLOTS - 1);
  }

  private long key(Path partFile, long offset) {
    Long fileHash = fileHashes.get(partFile);
    if (fileHash == null) {
      if (fileHashes.size() > 100_000) {
        fileHashes.clear();
      }
      fileHash = ArchiveFormat.hash64(partFile.toString().getBytes(StandardCharsets.UTF_8));
      fileHashes.put(partFile, fileHash);
    }
    long h = mix(fileHash ^ mix(offset + 0x9E3779B97F4A7C15L));
    return h == 0 ? 1 : h; // 0 marks an empty slot
  }

  /** A 64-bit finalizer (SplitMix64): every input bit moves every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
