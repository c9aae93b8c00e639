/**
 * Internal: byte-level helpers over {@link io.hpf.store.ReadableFile} (a slice of a file, a
 * read-ahead window, a prefetched range) used by the format and read path. May import {@link
 * io.hpf.store} only.
 */
package io.hpf.internal.io;
