/**
 * The read path's internals, under the facade {@link io.hpf.archive.ArchiveReader}: an open
 * generation ({@code OpenGeneration}: its segments, part files and dictionaries) and the process's
 * share of them ({@code SharedGenerations}), a segment's open index and catalog files, the merge of
 * segments' listings, and walks of parts in part order.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.catalog,
 * io.hpf.internal.format, io.hpf.internal.index, io.hpf.internal.io, io.hpf.internal.manifest,
 * io.hpf.internal.sort, io.hpf.store.
 */
package io.hpf.internal.read;
