/**
 * The manifest of a generation (FORMAT.md "Manifest"): its codec, the commit by rename, and the
 * files it names. {@link io.hpf.internal.manifest.Manifest} is read by tools; the rest is internal.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.format,
 * io.hpf.internal.index, io.hpf.internal.io, io.hpf.store.
 */
package io.hpf.internal.manifest;
