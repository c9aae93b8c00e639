/**
 * Internal: a segment's index file (FORMAT.md "Index"): extendible-hash buckets, each with a
 * minimal perfect hash over its keys (PTHash's layout), written by {@code SegmentIndexWriter} and
 * read one bucket at a time.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.format,
 * io.hpf.internal.sort, io.hpf.store.
 */
package io.hpf.internal.index;
