package io.hpf.archive;

import io.hpf.format.Codec;

/**
 * Settings of an {@link ArchiveWriter}, validated once. Immutable; build with {@link #builder()}.
 *
 * @param codec how entry content is compressed (entries that do not shrink are stored raw)
 * @param dictionary a zstd dictionary to store and use, or null
 * @param bucketCapacity the most records in one bucket file; 65536 records are 2 MiB
 * @param maxPartBytes a part file is closed and another started once it passes this size
 * @param streamThresholdBytes sources larger than this are streamed and stored uncompressed instead
 *     of being held in memory
 */
public record WriterOptions(
    Codec codec,
    byte[] dictionary,
    int bucketCapacity,
    long maxPartBytes,
    long streamThresholdBytes) {

  public static final int DEFAULT_BUCKET_CAPACITY = 65_536;
  public static final long DEFAULT_MAX_PART_BYTES = 1L << 30;
  public static final long DEFAULT_STREAM_THRESHOLD_BYTES = 64L << 20;

  public WriterOptions {
    if (codec == null) {
      throw new IllegalArgumentException("codec is required");
    }
    if (dictionary != null && codec != Codec.ZSTD) {
      throw new IllegalArgumentException(
          "a dictionary needs the zstd codec, not " + codec.displayName());
    }
    if (bucketCapacity < 1) {
      throw new IllegalArgumentException("bucket capacity must be at least 1: " + bucketCapacity);
    }
    if (maxPartBytes < 1
        || streamThresholdBytes < 0
        || streamThresholdBytes > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException(
          "part size and stream threshold must be positive, threshold < 2 GiB");
    }
    dictionary = dictionary == null ? null : dictionary.clone();
  }

  @Override
  public byte[] dictionary() {
    return dictionary == null ? null : dictionary.clone();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder with the defaults: zstd, no dictionary, 65536 records a bucket, 1 GiB parts. */
  public static final class Builder {
    private Codec codec = Codec.ZSTD;
    private byte[] dictionary;
    private int bucketCapacity = DEFAULT_BUCKET_CAPACITY;
    private long maxPartBytes = DEFAULT_MAX_PART_BYTES;
    private long streamThresholdBytes = DEFAULT_STREAM_THRESHOLD_BYTES;

    public Builder codec(Codec value) {
      codec = value;
      return this;
    }

    public Builder dictionary(byte[] value) {
      dictionary = value;
      return this;
    }

    public Builder bucketCapacity(int value) {
      bucketCapacity = value;
      return this;
    }

    public Builder maxPartBytes(long value) {
      maxPartBytes = value;
      return this;
    }

    public Builder streamThresholdBytes(long value) {
      streamThresholdBytes = value;
      return this;
    }

    public WriterOptions build() {
      return new WriterOptions(
          codec, dictionary, bucketCapacity, maxPartBytes, streamThresholdBytes);
    }
  }
}
