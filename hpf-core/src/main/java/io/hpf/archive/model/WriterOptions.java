package io.hpf.archive.model;

import io.hpf.store.Storage;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * How an {@link io.hpf.archive.ArchiveWriter} writes: one flat set of settings, each default beside
 * its field, validated once. Immutable; build with {@link #builder()}.
 *
 * <p>Four are settings the archive records in its manifest (FORMAT.md "Manifest"), which a writer
 * keeps unless asked otherwise: for each, an empty value says so explicitly ("the archive's"), for
 * a new archive the defaults below. A writer's {@link io.hpf.archive.ArchiveWriter#options()} are
 * resolved against its archive ({@link #resolve}): all four are present in them.
 */
public final class WriterOptions {
  // What the archive records; empty: the archive's (a new archive's: the defaults).
  /** How content is compressed; a new archive's: {@link #defaultCodec} of its storage. */
  private final Optional<Codec> codec;

  /** The zstd level of new entries, 1 to 19; a new archive's: 3 (zstd, if asked alone). */
  private final OptionalInt zstdLevel;

  /** Groups of small entries (FORMAT.md "Group"); a new archive's: 2 KiB of entries ≤ 512 B. */
  private final Optional<Groups> groups;

  /** The most records in a bucket of new segments; a new archive's: 65,536 (2 MiB). */
  private final OptionalInt bucketCapacity;

  // This writing session.
  /** A zstd dictionary to store and use when creating; none by default. */
  private final byte[] dictionary;

  /** A part file is closed and another started past this size; 1 GiB. */
  private final long maxPartBytes;

  /** Larger sources are streamed and stored raw, not held in memory; 64 MiB (below 2 GiB). */
  private final long streamThresholdBytes;

  /** An added name that exists replaces its entry; off (an error). */
  private final boolean replace;

  /** Take over the lock of a writer that is gone; off (never automatic). */
  private final boolean breakLock;

  /**
   * Entries no larger than a block do not straddle a block boundary of their part (padding before
   * them, FORMAT.md "Part file"); empty: the storage's block size (an HDFS block; local disk has
   * none), 0: never, else the block size to align to.
   */
  private final OptionalLong blockAlignment;

  // After each commit.
  /** Run the size-tiered compaction policy; on. */
  private final boolean autoCompact;

  /** The policy keeps at most this many segments; 8. */
  private final int maxSegments;

  /** Content is rewritten when dead bytes pass this share of part bytes (above 1: never); 0.5. */
  private final double reclaimRatio;

  /** Files a commit left unreferenced are deleted this long after, for older readers; 15 min. */
  private final long gracePeriodMillis;

  /** Codec, groups and level once all three are known (resolved options), else null. */
  private final ArchiveSettings resolved;

  /**
   * Groups of about {@code bytes} raw bytes of entries of at most {@code entryMaxBytes}, compressed
   * as one; {@link #NONE} stores every entry on its own. Only with a codec: stored raw, a group
   * would save nothing but headers and cost a lookup in the group.
   */
  public record Groups(int bytes, int entryMaxBytes) {
    /** Every entry on its own. */
    public static final Groups NONE = new Groups(0, 0);

    public Groups {
      ArchiveSettings.checkGroups(bytes, entryMaxBytes);
    }
  }

  private WriterOptions(Builder b) {
    this.codec = b.codec;
    this.zstdLevel = b.zstdLevel;
    this.groups = b.groups;
    this.bucketCapacity = b.bucketCapacity;
    this.dictionary = b.dictionary == null ? null : b.dictionary.clone();
    this.maxPartBytes = b.maxPartBytes;
    this.streamThresholdBytes = b.streamThresholdBytes;
    this.replace = b.replace;
    this.breakLock = b.breakLock;
    this.blockAlignment = b.blockAlignment;
    this.autoCompact = b.autoCompact;
    this.maxSegments = b.maxSegments;
    this.reclaimRatio = b.reclaimRatio;
    this.gracePeriodMillis = b.gracePeriodMillis;
    this.resolved =
        codec.isPresent() && groups.isPresent() && zstdLevel.isPresent()
            ? new ArchiveSettings(
                codec.get(),
                groups.get().bytes(),
                groups.get().entryMaxBytes(),
                zstdLevel.getAsInt())
            : null;
    codec.ifPresent(c -> checkDictionary(dictionary, c));
    zstdLevel.ifPresent(ArchiveSettings::checkZstdLevel);
    if (bucketCapacity.isPresent() && bucketCapacity.getAsInt() < 1) {
      throw new IllegalArgumentException(
          "bucket capacity must be at least 1: " + bucketCapacity.getAsInt());
    }
    if (maxPartBytes < 1
        || streamThresholdBytes < 0
        || streamThresholdBytes > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException(
          "part size and stream threshold must be positive, threshold < 2 GiB");
    }
    if (blockAlignment.isPresent() && blockAlignment.getAsLong() < 0) {
      throw new IllegalArgumentException(
          "block alignment must be 0 or a size: " + blockAlignment.getAsLong());
    }
    if (maxSegments < 1 || reclaimRatio < 0 || gracePeriodMillis < 0) {
      throw new IllegalArgumentException(
          "max segments must be at least 1, reclaim ratio and grace period not negative");
    }
  }

  public Optional<Codec> codec() {
    return codec;
  }

  public OptionalInt zstdLevel() {
    return zstdLevel;
  }

  public Optional<Groups> groups() {
    return groups;
  }

  public OptionalInt bucketCapacity() {
    return bucketCapacity;
  }

  /** A copy of the dictionary, or null for none. */
  public byte[] dictionary() {
    return dictionary == null ? null : dictionary.clone();
  }

  public long maxPartBytes() {
    return maxPartBytes;
  }

  public long streamThresholdBytes() {
    return streamThresholdBytes;
  }

  public boolean replace() {
    return replace;
  }

  public boolean breakLock() {
    return breakLock;
  }

  public OptionalLong blockAlignment() {
    return blockAlignment;
  }

  public boolean autoCompact() {
    return autoCompact;
  }

  public int maxSegments() {
    return maxSegments;
  }

  public double reclaimRatio() {
    return reclaimRatio;
  }

  public long gracePeriodMillis() {
    return gracePeriodMillis;
  }

  /**
   * The codec of a new archive on local disk, chosen by measurement (docs/BENCHMARKS.md, "Codecs,
   * groups and packing for size"): there a warm get is a copy from the page cache, and decoding is
   * its cost: an LZ4 get of a 3.5 KB file is 3× a plain file's read where zstd's decoding alone is
   * 1.2× (4.4 µs). LZ4 also packs the kernel tree faster than {@code tar | zstd -3}, and stores
   * 1.5–1.7× zstd's bytes.
   */
  public static final Codec LOCAL_DEFAULT_CODEC = Codec.LZ4;

  /**
   * The codec of a new archive where reads are remote ({@link Storage#readsAreRemote()}: HDFS,
   * object stores): a get there is a round trip of about 100 µs, which LZ4's faster decoding
   * shortens little (the paper suite on HDFS: gets of logs and kernel files within the benchmark's
   * noise of zstd's, of 30 KB to 1 MB texts a quarter faster), while zstd with a dictionary stores
   * 1.55–1.9× fewer bytes, which HDFS keeps three times.
   */
  public static final Codec REMOTE_DEFAULT_CODEC = Codec.ZSTD;

  /** The codec of a new archive on {@code storage}. */
  public static Codec defaultCodec(Storage storage) {
    return storage.readsAreRemote() ? REMOTE_DEFAULT_CODEC : LOCAL_DEFAULT_CODEC;
  }

  public static final int DEFAULT_BUCKET_CAPACITY = 65_536;
  public static final long DEFAULT_MAX_PART_BYTES = 1L << 30;
  public static final long DEFAULT_STREAM_THRESHOLD_BYTES = 64L << 20;
  public static final int DEFAULT_MAX_SEGMENTS = 8;
  public static final double DEFAULT_RECLAIM_RATIO = 0.5;
  public static final long DEFAULT_GRACE_PERIOD_MILLIS = 15 * 60 * 1000L;

  /**
   * Groups of about 2 KiB of entries up to 512 bytes, chosen by measurement (docs/BENCHMARKS.md,
   * "Codecs, groups and packing for size"): a get of a member decompresses its whole group, about
   * 1.8 µs a KiB with zstd here, so larger groups trade random gets for bytes (32 KiB groups of
   * entries up to 4 KiB made the kernel's tiny files 40% of their size instead of 57%, and their
   * gets 10× slower). With LZ4 the same groups keep the kernel's files of up to 512 bytes at 83% of
   * their size and their gets 3.3× plain files'; 4 KiB groups would save 7 points for gets of 2.3×.
   */
  public static final int DEFAULT_GROUP_BYTES = 2 << 10;

  public static final int DEFAULT_GROUP_ENTRY_MAX_BYTES = 512;

  /**
   * Packing for size ({@code hpf create --solid}, {@link Builder#solid()}): the settings that made
   * the paper suite's logs and kernel archives no larger than a block-compressed MapFile and the
   * kernel tree's no larger than {@code tar | zstd -3} (docs/BENCHMARKS.md, "Codecs, groups and
   * packing for size": packing for size). The level carries most of it on generated logs (zstd's
   * default level finds few of their matches), the groups on source trees, whose files share
   * context. Level 10 rather than 11: 11 stored 0.5% fewer bytes on the kernel tree and 2.7% on the
   * logs, and packed the tree in twice the time (20.7 s against 10.9 s). A get of a grouped file
   * decodes its group: up to 256 KiB.
   */
  public static final int SOLID_ZSTD_LEVEL = 10;

  public static final int SOLID_GROUP_BYTES = 256 << 10;
  public static final int SOLID_GROUP_ENTRY_MAX_BYTES = 64 << 10;

  /** Whether an entry of {@code length} bytes goes into a group. REQUIRES: resolved options. */
  public boolean inGroup(int length) {
    ArchiveSettings s = settings();
    return s.groupBytes() > 0 && s.codec() != Codec.NONE && length <= s.groupEntryMaxBytes();
  }

  /**
   * The settings a manifest records of these options: codec, groups, level. REQUIRES: resolved
   * options.
   */
  public ArchiveSettings settings() {
    if (resolved == null) {
      throw new IllegalStateException(
          "an archive's setting is read before the options are resolved");
    }
    return resolved;
  }

  /**
   * These options with the archive's settings where they leave them to the archive: those of {@code
   * base}'s manifest ({@link ArchiveSettings#recordedIn}), or for a new archive ({@code base} null)
   * the defaults of its {@code storage}. Each setting these options change from the archive's is
   * added to {@code changes}, one line for the user. {@code baseBucketCapacity}: {@code base}'s.
   */
  public WriterOptions resolve(
      Generation base, int baseBucketCapacity, Storage storage, List<String> changes) {
    ArchiveSettings archive = base == null ? null : base.writerSettings();
    ArchiveSettings from =
        base != null ? ArchiveSettings.recordedIn(base) : newArchiveSettings(storage);
    Groups fromGroups = new Groups(from.groupBytes(), from.groupEntryMaxBytes());
    Groups resolvedGroups = groups.orElse(fromGroups);
    ArchiveSettings resolved =
        new ArchiveSettings(
            codec.orElse(from.codec()),
            resolvedGroups.bytes(),
            resolvedGroups.entryMaxBytes(),
            zstdLevel.orElse(from.zstdLevel()));
    checkDictionary(dictionary, resolved.codec());
    if (zstdLevel.isPresent() && codec.isEmpty() && resolved.codec() != Codec.ZSTD) {
      // A level asked of an archive whose writers use another codec would change nothing. (With
      // a codec given too, the level was checked with it: PackingRequest, or resolved options.)
      throw new IllegalArgumentException(
          "a zstd level needs the zstd codec; this archive's new entries are "
              + resolved.codec().displayName()
              + " (ask for zstd with it)");
    }
    // Compared as described: a level an lz4 archive keeps for later is nothing to tell.
    if (archive != null && !archive.describe().equals(resolved.describe())) {
      changes.add(archive.describe() + " -> " + resolved.describe() + " for new entries");
    }
    int archiveCapacity = base == null ? DEFAULT_BUCKET_CAPACITY : baseBucketCapacity;
    int capacity = bucketCapacity.orElse(archiveCapacity);
    if (base != null && capacity != archiveCapacity) {
      changes.add("bucket capacity " + archiveCapacity + " -> " + capacity + " for new segments");
    }
    return toBuilder()
        .codec(resolved.codec())
        .zstdLevel(resolved.zstdLevel())
        .groups(resolvedGroups.bytes(), resolvedGroups.entryMaxBytes())
        .bucketCapacity(capacity)
        .build();
  }

  /** These options as a writer of a new archive on {@code storage} resolves them. */
  public WriterOptions resolveForNew(Storage storage) {
    return resolve(null, DEFAULT_BUCKET_CAPACITY, storage, new java.util.ArrayList<>());
  }

  /**
   * What a new archive on {@code storage} starts from: its default codec (zstd when a zstd level is
   * asked, there being no codec of the archive's to keep), the default groups and level.
   */
  private ArchiveSettings newArchiveSettings(Storage storage) {
    return ArchiveSettings.defaultsWith(zstdLevel.isPresent() ? Codec.ZSTD : defaultCodec(storage));
  }

  private static void checkDictionary(byte[] dictionary, Codec codec) {
    if (dictionary != null && codec != Codec.ZSTD) {
      throw new IllegalArgumentException(
          "a dictionary needs the zstd codec, not " + codec.displayName());
    }
  }

  /** The same options with another dictionary. */
  public WriterOptions withDictionary(byte[] value) {
    return toBuilder().dictionary(value).build();
  }

  /** A builder holding these options, to change some. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.codec = codec;
    b.zstdLevel = zstdLevel;
    b.groups = groups;
    b.bucketCapacity = bucketCapacity;
    b.dictionary = dictionary;
    b.maxPartBytes = maxPartBytes;
    b.streamThresholdBytes = streamThresholdBytes;
    b.replace = replace;
    b.breakLock = breakLock;
    b.blockAlignment = blockAlignment;
    b.autoCompact = autoCompact;
    b.maxSegments = maxSegments;
    b.reclaimRatio = reclaimRatio;
    b.gracePeriodMillis = gracePeriodMillis;
    return b;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The settings an archive records, for {@link Builder#keepArchive}. */
  public enum ArchiveSetting {
    CODEC,
    ZSTD_LEVEL,
    GROUPS,
    BUCKET_CAPACITY
  }

  /** Starts from the defaults each field of {@link WriterOptions} gives. */
  public static final class Builder {
    private Optional<Codec> codec = Optional.empty();
    private OptionalInt zstdLevel = OptionalInt.empty();
    private Optional<Groups> groups = Optional.empty();
    private OptionalInt bucketCapacity = OptionalInt.empty();
    private byte[] dictionary;
    private long maxPartBytes = DEFAULT_MAX_PART_BYTES;
    private long streamThresholdBytes = DEFAULT_STREAM_THRESHOLD_BYTES;
    private boolean replace;
    private boolean breakLock;
    private OptionalLong blockAlignment = OptionalLong.empty();
    private boolean autoCompact = true;
    private int maxSegments = DEFAULT_MAX_SEGMENTS;
    private double reclaimRatio = DEFAULT_RECLAIM_RATIO;
    private long gracePeriodMillis = DEFAULT_GRACE_PERIOD_MILLIS;

    private Builder() {}

    /**
     * Packing for size: zstd at {@link #SOLID_ZSTD_LEVEL}, groups of {@link #SOLID_GROUP_BYTES} of
     * entries up to {@link #SOLID_GROUP_ENTRY_MAX_BYTES}; a later call may change any of them.
     */
    public Builder solid() {
      return codec(Codec.ZSTD)
          .zstdLevel(SOLID_ZSTD_LEVEL)
          .groups(SOLID_GROUP_BYTES, SOLID_GROUP_ENTRY_MAX_BYTES);
    }

    /** Keeps what the archive records for these settings, whatever was asked before. */
    public Builder keepArchive(ArchiveSetting... settings) {
      for (ArchiveSetting s : settings) {
        switch (s) {
          case CODEC -> codec = Optional.empty();
          case ZSTD_LEVEL -> zstdLevel = OptionalInt.empty();
          case GROUPS -> groups = Optional.empty();
          case BUCKET_CAPACITY -> bucketCapacity = OptionalInt.empty();
        }
      }
      return this;
    }

    public Builder codec(Codec value) {
      codec = Optional.of(value);
      return this;
    }

    public Builder zstdLevel(int value) {
      zstdLevel = OptionalInt.of(value);
      return this;
    }

    /** Groups of about {@code bytes} raw bytes of entries of at most {@code entryMax}. */
    public Builder groups(int bytes, int entryMax) {
      groups = Optional.of(new Groups(bytes, entryMax));
      return this;
    }

    public Builder bucketCapacity(int value) {
      bucketCapacity = OptionalInt.of(value);
      return this;
    }

    public Builder dictionary(byte[] value) {
      dictionary = value;
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

    /** Aligns to blocks of {@code bytes} (0: never pads); unset, to the storage's block size. */
    public Builder blockAlignment(long bytes) {
      blockAlignment = OptionalLong.of(bytes);
      return this;
    }

    public Builder autoCompact(boolean value) {
      autoCompact = value;
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

    public WriterOptions build() {
      return new WriterOptions(this);
    }
  }
}
