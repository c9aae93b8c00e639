package io.hpf.internal.index;

import io.hpf.internal.format.NameHash;

/**
 * The hash a bucket's perfect hash is built over: XXH64 of the name with the bucket's seed
 * (FORMAT.md "Bucket file"). It is independent of the name hash that picks the bucket, and a new
 * seed separates two names whose hashes collide. Tests substitute a weak one to force collisions.
 */
@FunctionalInterface
interface SlotHash {
  SlotHash XXH64 = NameHash::xxh64;

  long hash(byte[] nameUtf8, long seed);
}
