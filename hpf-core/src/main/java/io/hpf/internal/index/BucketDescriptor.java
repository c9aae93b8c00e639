package io.hpf.internal.index;

/**
 * What the manifest says of one bucket of a segment (FORMAT.md "Directory"), enough for a cold
 * lookup to read the bucket's header and perfect hash in one read.
 *
 * @param bucketNo the number in the bucket's file name
 * @param localDepth how many leading hash bits all of the bucket's names share
 * @param keyCount records in the bucket
 * @param metaLength bytes from the start of the bucket through the meta CRC
 * @param fileLength the bucket's length (its file's, or its section's of a segment file)
 * @param offset where the bucket starts in its segment file (version 4), or 0 in a file of its own
 */
public record BucketDescriptor(
    int bucketNo, int localDepth, int keyCount, int metaLength, long fileLength, long offset) {}
