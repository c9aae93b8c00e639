/**
 * The write path's internals: part files and the pool that lends them to writing threads, the
 * writer lock, the plan of a commit and the segment it writes. Not API: {@link
 * io.hpf.archive.ArchiveWriter} is.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.catalog,
 * io.hpf.internal.format, io.hpf.internal.index, io.hpf.internal.manifest, io.hpf.internal.sort,
 * io.hpf.store.
 */
package io.hpf.internal.write;
