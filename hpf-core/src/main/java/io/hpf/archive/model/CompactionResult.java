package io.hpf.archive.model;

/**
 * What a compaction did.
 *
 * @param segmentsBefore segments before
 * @param segmentsAfter segments after
 * @param reclaimed whether content was rewritten (dead bytes dropped)
 * @param bytesReclaimed part bytes freed (0 for an index-only merge)
 * @param manifest the committed manifest (the old one if nothing was done)
 */
public record CompactionResult(
    int segmentsBefore,
    int segmentsAfter,
    boolean reclaimed,
    long bytesReclaimed,
    Generation manifest) {}
