/**
 * The manifest of a generation (FORMAT.md "Manifest"): its codec, the commit by rename, and the
 * files it names. {@link io.hpf.manifest.Manifest} is read by tools; the rest is internal.
 */
package io.hpf.manifest;
