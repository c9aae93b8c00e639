/**
 * The read path's internals, under the facade {@link io.hpf.archive.ArchiveReader}: an open
 * generation ({@code OpenGeneration}: its segments, part files and dictionaries) and the process's
 * share of them ({@code SharedGenerations}), a segment's open index and catalog files, the merge of
 * segments' listings, and walks of parts in part order.
 *
 * <p>May import the format, index, catalog, manifest and io internals, {@link io.hpf.store} and the
 * API's value types.
 */
package io.hpf.internal.read;
