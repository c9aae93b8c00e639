/**
 * The read path's internals: a segment's open index and catalog files, shared by the readers of
 * several generations, and the merge of segments' listings. Not API: {@link
 * io.hpf.archive.ArchiveReader} is.
 *
 * <p>May import the format, index, catalog and manifest internals and {@link io.hpf.store}.
 */
package io.hpf.internal.read;
