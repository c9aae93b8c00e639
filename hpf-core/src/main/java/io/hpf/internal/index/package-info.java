/**
 * Internal: a segment's index file (FORMAT.md "Index"): extendible-hash buckets, each with a
 * minimal perfect hash over its keys (PTHash's layout), written by {@code SegmentIndexWriter} and
 * read one bucket at a time. May import {@code io.hpf.internal.format}, {@code io.hpf.internal.io},
 * {@code io.hpf.internal.sort} and {@link io.hpf.store}.
 */
package io.hpf.internal.index;
