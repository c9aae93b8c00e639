/**
 * The manifest of a generation (FORMAT.md "Manifest"): its codec, the commit by rename, and the
 * files it names. {@link io.hpf.internal.manifest.Manifest} is read by tools; the rest is internal.
 *
 * <p>May import {@code io.hpf.internal.format}, {@code io.hpf.internal.index}, {@code
 * io.hpf.internal.io} and {@link io.hpf.store}.
 */
package io.hpf.internal.manifest;
