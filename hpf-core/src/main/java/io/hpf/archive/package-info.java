/**
 * The API: open, read, list, write, change and verify an archive. A library user needs only this
 * package, {@link io.hpf.store} (where the files live) and, to pack trees of files, {@link
 * io.hpf.pack}.
 *
 * <table>
 *   <caption>The API at a glance</caption>
 *   <tr><th>to</th><th>use</th></tr>
 *   <tr><td>read by name, list, stream</td><td>{@link io.hpf.archive.ArchiveReader}</td></tr>
 *   <tr><td>add, replace, delete, commit, compact</td><td>{@link io.hpf.archive.ArchiveWriter}
 *       with {@link io.hpf.archive.WriterOptions}</td></tr>
 *   <tr><td>check every byte</td><td>{@link io.hpf.archive.ArchiveVerifier} giving a {@link
 *       io.hpf.archive.VerifyReport}</td></tr>
 *   <tr><td>what an entry is</td><td>{@link io.hpf.archive.EntryInfo} (its catalog row), {@link
 *       io.hpf.archive.EntryMetadata} (what a writer stores with it), {@link
 *       io.hpf.archive.Codec}</td></tr>
 *   <tr><td>errors</td><td>{@link io.hpf.archive.CorruptArchiveException} (damage, with file
 *       and offset), {@link io.hpf.archive.EntryNotFoundException} and the writer's
 *       conflicts</td></tr>
 *   <tr><td>engines (Spark, MapReduce, the server)</td><td>{@link
 *       io.hpf.archive.ArchiveSnapshot}, {@link io.hpf.archive.PartCursor}, {@link
 *       io.hpf.archive.FetchedEntry}, {@link io.hpf.archive.PackingRequest}</td></tr>
 * </table>
 *
 * <p>Dependencies: this package is the facade over {@code io.hpf.internal.*}; the internal packages
 * may use its value types, options and exceptions, never its facade classes ({@code ArchiveReader},
 * {@code ArchiveWriter}, {@code ArchiveVerifier}).
 */
package io.hpf.archive;
