package io.hpf.index;

/**
 * What the manifest says of one bucket file of a segment (FORMAT.md "Directory"), enough for a cold
 * lookup to read the bucket's header and perfect hash in one read.
 *
 * @param bucketNo the number in the bucket's file name
 * @param localDepth how many leading hash bits all of the bucket's names share
 * @param keyCount records in the bucket
 * @param metaLength bytes from the start of the file through the meta CRC
 * @param fileLength the whole file's length
 */
public record BucketDescriptor(
    int bucketNo, int localDepth, int keyCount, int metaLength, long fileLength) {}
