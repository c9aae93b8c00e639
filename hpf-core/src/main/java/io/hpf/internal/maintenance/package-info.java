/**
 * Keeping archives in shape, for the writer: compaction (merging segments, reclaiming the space of
 * dead entries), recovery of what a writer that died left uncommitted, and cleaning files no
 * generation needs. Not API: {@link io.hpf.archive.ArchiveWriter} runs them ({@code compact}, on
 * open, after each commit), {@link io.hpf.archive.ArchiveVerifier} checks what they leave.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.catalog,
 * io.hpf.internal.format, io.hpf.internal.manifest, io.hpf.internal.read, io.hpf.internal.write,
 * io.hpf.store.
 */
package io.hpf.internal.maintenance;
