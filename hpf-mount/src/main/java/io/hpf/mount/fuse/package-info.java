/**
 * The FUSE kernel protocol, spoken directly: {@link io.hpf.mount.fuse.FuseSession} mounts (through
 * libfuse 3), reads requests from the FUSE device on several threads and answers them from a {@link
 * io.hpf.mount.fuse.ReadOnlyFileSystem}, node by node, or from a {@link
 * io.hpf.mount.fuse.WritableFileSystem}, whose changes come through handles. Knows nothing of
 * archives. The public API is those three types, {@link io.hpf.mount.fuse.Attributes} and {@link
 * io.hpf.mount.fuse.FuseError}; the rest is internal.
 *
 * <p>May import (checked by ArchitectureTest): nothing of hpf.
 */
package io.hpf.mount.fuse;
