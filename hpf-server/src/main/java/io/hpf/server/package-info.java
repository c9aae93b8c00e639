/**
 * {@code hpf serve}: the server's options, its start-up and its log.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.hadoop, io.hpf.hadoop.roots,
 * io.hpf.server.archives, io.hpf.server.hot, io.hpf.server.http, io.hpf.server.metrics,
 * io.hpf.server.ring, io.hpf.server.s3, io.hpf.store.
 */
package io.hpf.server;
