/**
 * {@code hpf mount}: an archive as a directory tree through FUSE, so that every program reads
 * inside it ({@code ArchiveFs}) and, with {@code --writable}, writes into it ({@code
 * WritableArchiveFs}: an overlay of the changes not yet committed over the last commit, files
 * staged in memory or spilled to disk, a queue into the archive's group-commit writer). {@link
 * io.hpf.mount.MountMain} and {@link io.hpf.mount.UnmountMain} are the programs the CLI runs; the
 * rest is internal. Directories come from the entry names (as {@code hpf://} derives them); lookups
 * go through the archive's index, listings through its catalogs by prefix, content through the one
 * entry reader; {@code io.hpf.mount.fuse} speaks to the kernel.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.hadoop.roots, io.hpf.mount.fuse, io.hpf.store.
 */
package io.hpf.mount;
