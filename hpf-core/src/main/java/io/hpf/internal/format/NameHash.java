package io.hpf.internal.format;

import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The hash of an entry name: XXH64 of the name's UTF-8 bytes (FORMAT.md "Name hash"), a published
 * algorithm, so that a reader in any language computes the same value. The pure-Java instance is
 * used so results never depend on a native library being present. Thread-safe.
 */
public final class NameHash {
  private static final XXHash64 XXH64 = XXHashFactory.fastestJavaInstance().hash64();

  private NameHash() {}

  /** XXH64 with the given seed. */
  public static long xxh64(byte[] bytes, int offset, int length, long seed) {
    return XXH64.hash(bytes, offset, length, seed);
  }

  public static long xxh64(byte[] bytes, long seed) {
    return XXH64.hash(bytes, 0, bytes.length, seed);
  }

  /** The name hash: routes a name to a bucket and is the record's fingerprint. */
  public static long of(byte[] nameUtf8) {
    return xxh64(nameUtf8, FormatConstants.NAME_HASH_SEED);
  }

  public static long of(String name) {
    return of(EntryNames.utf8(name));
  }
}
