package io.hpf.archive;

import io.hpf.format.Codec;

/**
 * Settings of an {@link ArchiveWriter}, validated once. Immutable; build with {@link #builder()}.
 *
 * @param codec how entry content is compressed (entries that do not shrink are stored raw)
 * @param dictionary a zstd dictionary to store and use when creating, or null
 * @param bucketCapacity the most records in one bucket file (65536 records are 2 MiB), or {@link
 *     #ARCHIVE_SETTING} (the default) for the archive's own (its manifest's; {@value
 *     #DEFAULT_BUCKET_CAPACITY} for a new archive)
 * @param maxPartBytes a part file is closed and another started once it passes this size
 * @param streamThresholdBytes sources larger than this are streamed and stored uncompressed instead
 *     of being held in memory
 * @param replace an added name that exists replaces the entry; without it that is an error
 * @param breakLock take over the writer lock of a writer that is gone (never automatic)
 * @param maxSegments the tiered compaction after each commit keeps at most this many segments
 * @param reclaimRatio after a commit, content is rewritten when dead bytes pass this share of the
 *     part bytes (0 to 1; above 1 never)
 * @param gracePeriodMillis files a commit made unreferenced are deleted only this long after, so
 *     that readers of older generations keep reading
 * @param autoCompact run the tiered compaction policy after each commit
 * @param blockAlignment keep entries no larger than a block from straddling a block boundary of
 *     their part file, by padding before them (FORMAT.md "Part file"): {@link
 *     #ALIGN_TO_STORAGE_BLOCKS} (the default) uses the storage's block size (an HDFS block; local
 *     disk has none), 0 never pads, a positive value is the block size to align to
 * @param groupBytes small entries are stored together in groups (FORMAT.md "Group") of about this
 *     many raw bytes, compressed as one; 0 stores every entry on its own. Only with a codec: stored
 *     raw, a group would save nothing but headers and cost a lookup in the group
 * @param groupEntryMaxBytes entries whose content is at most this long go into groups
 */
public record WriterOptions(
    Codec codec,
    byte[] dictionary,
    int bucketCapacity,
    long maxPartBytes,
    long streamThresholdBytes,
    boolean replace,
    boolean breakLock,
    int maxSegments,
    double reclaimRatio,
    long gracePeriodMillis,
    boolean autoCompact,
    long blockAlignment,
    int groupBytes,
    int groupEntryMaxBytes) {

  /** {@link #blockAlignment()}: align to the block size the storage reports for each part file. */
  public static final long ALIGN_TO_STORAGE_BLOCKS = -1;

  /** A setting the archive keeps in its manifest: use the archive's. */
  public static final int ARCHIVE_SETTING = 0;

  public static final int DEFAULT_BUCKET_CAPACITY = 65_536;
  public static final long DEFAULT_MAX_PART_BYTES = 1L << 30;
  public static final long DEFAULT_STREAM_THRESHOLD_BYTES = 64L << 20;
  public static final int DEFAULT_MAX_SEGMENTS = 8;
  public static final double DEFAULT_RECLAIM_RATIO = 0.5;
  public static final long DEFAULT_GRACE_PERIOD_MILLIS = 15 * 60 * 1000L;

  /**
   * Groups of about 2 KiB of entries up to 512 bytes, chosen by measurement (docs/BENCHMARKS.md,
   * "Issue 14"): a get of a member decompresses its whole group, about 1.8 µs a KiB with zstd here,
   * so larger groups trade random gets for bytes (32 KiB groups of entries up to 4 KiB made the
   * kernel's tiny files 40% of their size instead of 57%, and their gets 10× slower).
   */
  public static final int DEFAULT_GROUP_BYTES = 2 << 10;

  public static final int DEFAULT_GROUP_ENTRY_MAX_BYTES = 512;

  /** The largest group size a writer takes: with one more member, a group stays under 1 MiB. */
  public static final int MAX_GROUP_BYTES = 256 << 10;

  public WriterOptions {
    if (codec == null) {
      throw new IllegalArgumentException("codec is required");
    }
    if (dictionary != null && codec != Codec.ZSTD) {
      throw new IllegalArgumentException(
          "a dictionary needs the zstd codec, not " + codec.displayName());
    }
    if (bucketCapacity < 0) {
      throw new IllegalArgumentException("bucket capacity must be at least 1: " + bucketCapacity);
    }
    if (maxPartBytes < 1
        || streamThresholdBytes < 0
        || streamThresholdBytes > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException(
          "part size and stream threshold must be positive, threshold < 2 GiB");
    }
    if (maxSegments < 1 || reclaimRatio < 0 || gracePeriodMillis < 0) {
      throw new IllegalArgumentException(
          "max segments must be at least 1, reclaim ratio and grace period not negative");
    }
    if (blockAlignment < ALIGN_TO_STORAGE_BLOCKS) {
      throw new IllegalArgumentException(
          "block alignment must be -1, 0 or a size: " + blockAlignment);
    }
    if (groupBytes < 0
        || groupBytes > MAX_GROUP_BYTES
        || groupEntryMaxBytes < 0
        || groupEntryMaxBytes > groupBytes) {
      throw new IllegalArgumentException(
          "group size must be 0 to "
              + MAX_GROUP_BYTES
              + " bytes and the largest grouped entry at most the group size: "
              + groupBytes
              + ", "
              + groupEntryMaxBytes);
    }
    dictionary = dictionary == null ? null : dictionary.clone();
  }

  /** Whether entries of {@code length} bytes go into groups. */
  public boolean groups(int length) {
    return groupBytes > 0 && codec != Codec.NONE && length <= groupEntryMaxBytes;
  }

  @Override
  public byte[] dictionary() {
    return dictionary == null ? null : dictionary.clone();
  }

  /** The same options with another dictionary. */
  public WriterOptions withDictionary(byte[] value) {
    return new WriterOptions(
        codec,
        value,
        bucketCapacity,
        maxPartBytes,
        streamThresholdBytes,
        replace,
        breakLock,
        maxSegments,
        reclaimRatio,
        gracePeriodMillis,
        autoCompact,
        blockAlignment,
        groupBytes,
        groupEntryMaxBytes);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builder with the defaults: zstd, no dictionary, 65536 records a bucket, 1 GiB parts, no
   * replacing, at most 8 segments, reclaim at half dead, 15 minutes of grace.
   */
  public static final class Builder {
    private Codec codec = Codec.ZSTD;
    private byte[] dictionary;
    private int bucketCapacity = ARCHIVE_SETTING;
    private long maxPartBytes = DEFAULT_MAX_PART_BYTES;
    private long streamThresholdBytes = DEFAULT_STREAM_THRESHOLD_BYTES;
    private boolean replace;
    private boolean breakLock;
    private int maxSegments = DEFAULT_MAX_SEGMENTS;
    private double reclaimRatio = DEFAULT_RECLAIM_RATIO;
    private long gracePeriodMillis = DEFAULT_GRACE_PERIOD_MILLIS;
    private boolean autoCompact = true;
    private long blockAlignment = ALIGN_TO_STORAGE_BLOCKS;
    private int groupBytes = DEFAULT_GROUP_BYTES;
    private int groupEntryMaxBytes = DEFAULT_GROUP_ENTRY_MAX_BYTES;

    /**
     * Groups of about {@code bytes} raw bytes of entries of at most {@code entryMax}; 0, 0: none.
     */
    public Builder groups(int bytes, int entryMax) {
      this.groupBytes = bytes;
      this.groupEntryMaxBytes = entryMax;
      return this;
    }

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

    public Builder replace(boolean value) {
      replace = value;
      return this;
    }

    public Builder breakLock(boolean value) {
      breakLock = value;
      return this;
    }

    public Builder maxSegments(int value) {
      maxSegments = value;
      return this;
    }

    public Builder reclaimRatio(double value) {
      reclaimRatio = value;
      return this;
    }

    public Builder gracePeriodMillis(long value) {
      gracePeriodMillis = value;
      return this;
    }

    public Builder autoCompact(boolean value) {
      autoCompact = value;
      return this;
    }

    public Builder blockAlignment(long value) {
      blockAlignment = value;
      return this;
    }

    public WriterOptions build() {
      return new WriterOptions(
          codec,
          dictionary,
          bucketCapacity,
          maxPartBytes,
          streamThresholdBytes,
          replace,
          breakLock,
          maxSegments,
          reclaimRatio,
          gracePeriodMillis,
          autoCompact,
          blockAlignment,
          groupBytes,
          groupEntryMaxBytes);
    }
  }
}
