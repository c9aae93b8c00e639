/**
 * The archives a server serves: the directory of them, a pool of open readers refreshed as archives
 * change, and the writers that take S3 and HTTP writes.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model,
 * io.hpf.hadoop.roots, io.hpf.server, io.hpf.server.hot, io.hpf.server.metrics, io.hpf.store.
 */
package io.hpf.server.archives;
