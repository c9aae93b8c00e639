/**
 * The HTTP front end (Netty): routing, entries, ranges, listings, multi-gets, writes, the S3
 * responses, the admin pages, and the guards against slow and too many clients.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.hadoop.roots, io.hpf.server, io.hpf.server.archives, io.hpf.server.hot,
 * io.hpf.server.metrics, io.hpf.server.ring, io.hpf.server.s3.
 */
package io.hpf.server.http;
