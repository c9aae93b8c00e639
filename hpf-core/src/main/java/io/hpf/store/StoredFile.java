package io.hpf.store;

/** A file of a storage directory and its length in bytes. */
public record StoredFile(String name, long lengthBytes) {}
