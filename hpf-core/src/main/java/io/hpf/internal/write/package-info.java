/**
 * The write path's internals: part files and the pool that lends them to writing threads, the
 * writer lock, the plan of a commit and the segment it writes. Not API: {@link
 * io.hpf.archive.ArchiveWriter} is.
 *
 * <p>May import the format, index, catalog, sort and manifest internals, {@link io.hpf.store} and
 * the API's value types, options and exceptions.
 */
package io.hpf.internal.write;
