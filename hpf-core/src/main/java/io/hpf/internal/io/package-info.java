/**
 * Internal: byte-level helpers over {@link io.hpf.store.ReadableFile} (a slice of a file, a
 * read-ahead window, a prefetched range) used by the format and read path.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.store.
 */
package io.hpf.internal.io;
