package io.hpf.server.http;

import io.hpf.format.NameHash;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Raw entries whose content this process has read once and found to match its CRC32C, so that later
 * requests can send them with zero-copy (sendfile) from the part file without reading them again:
 * committed part files never change, so a checked entry stays checked. A lossy table of 64-bit keys
 * (part file and offset): a forgotten entry is only checked again.
 */
final class VerifiedContent {
  private static final int SLOTS = 1 << 16;

  private final AtomicLongArray keys = new AtomicLongArray(SLOTS);

  boolean contains(String partFile, long offset) {
    long key = key(partFile, offset);
    return keys.get(slot(key)) == key;
  }

  void add(String partFile, long offset) {
    long key = key(partFile, offset);
    keys.set(slot(key), key);
  }

  private static int slot(long key) {
    return (int) (key ^ (key >>> 32)) & (SLOTS - 1);
  }

  private static long key(String partFile, long offset) {
    long h = NameHash.xxh64(partFile.getBytes(StandardCharsets.UTF_8), offset);
    return h == 0 ? 1 : h; // 0 marks an empty slot
  }
}
