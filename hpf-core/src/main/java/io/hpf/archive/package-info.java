/**
 * The API: open, read, list, write, change and verify an archive. A library user needs only this
 * package, its model {@link io.hpf.archive.model} (entries, options, results, errors), {@link
 * io.hpf.store} (where the files live) and, to pack trees of files, {@link io.hpf.pack}.
 *
 * <table>
 *   <caption>The API at a glance</caption>
 *   <tr><th>to</th><th>use</th></tr>
 *   <tr><td>read by name, list, stream</td><td>{@link io.hpf.archive.ArchiveReader}</td></tr>
 *   <tr><td>add, replace, delete, commit, compact</td><td>{@link io.hpf.archive.ArchiveWriter}
 *       with {@link io.hpf.archive.model.WriterOptions}</td></tr>
 *   <tr><td>check every byte</td><td>{@link io.hpf.archive.ArchiveVerifier} giving a {@link
 *       io.hpf.archive.VerifyReport}</td></tr>
 *   <tr><td>what an entry is</td><td>{@link io.hpf.archive.model.EntryInfo} (its catalog row), {@link
 *       io.hpf.archive.model.EntryMetadata} (what a writer stores with it), {@link
 *       io.hpf.archive.model.Codec}</td></tr>
 *   <tr><td>errors</td><td>{@link io.hpf.archive.model.ArchiveException} and its kinds:
 *       damage ({@link io.hpf.archive.model.CorruptArchiveException}, with file and offset), an
 *       unknown version, a lock, a replaced archive, conflicting names; and {@link
 *       io.hpf.archive.model.EntryNotFoundException}</td></tr>
 *   <tr><td>serve an archive for days, each commit in turn</td><td>{@link
 *       io.hpf.archive.LiveArchive}</td></tr>
 *   <tr><td>engines (Spark, MapReduce, the server)</td><td>{@link
 *       io.hpf.archive.ArchiveSnapshot}, {@link io.hpf.archive.PartCursor}, {@link
 *       io.hpf.archive.FetchedEntry}, {@link io.hpf.archive.PackingRequest}</td></tr>
 * </table>
 *
 * <p>Dependencies: this package is the facade over {@code io.hpf.internal.*}, which use the model
 * and never this package; hpf-core's module descriptor exports neither the internals nor anything
 * but the API packages.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.catalog,
 * io.hpf.internal.format, io.hpf.internal.index, io.hpf.internal.io, io.hpf.internal.maintenance,
 * io.hpf.internal.manifest, io.hpf.internal.read, io.hpf.internal.sort, io.hpf.internal.write,
 * io.hpf.store.
 */
package io.hpf.archive;
