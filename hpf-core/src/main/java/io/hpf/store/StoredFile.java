package io.hpf.store;

/**
 * A file of a storage directory, its length in bytes and, where the listing tells, its version (as
 * {@link Storage#version} gives it; null where the listing does not tell).
 */
public record StoredFile(String name, long lengthBytes, Object version) {
  public StoredFile(String name, long lengthBytes) {
    this(name, lengthBytes, null);
  }
}
