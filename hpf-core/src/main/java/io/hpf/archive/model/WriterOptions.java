package io.hpf.archive.model;

import io.hpf.store.Storage;
import java.util.List;

/**
 * How an {@link io.hpf.archive.ArchiveWriter} writes, validated once, in three parts, each with its
 * defaults beside its fields: {@link Asked} — what this writer asks of the settings the archive
 * records in its manifest (codec, groups, zstd level, bucket capacity; null keeps the archive's
 * own); {@link Session} — this writing session's (part size, streaming threshold, replacing, the
 * lock, block alignment); {@link Maintenance} — what the writer does after each commit (compaction
 * policy, grace period). Immutable; build with {@link #builder()}. A writer's {@link
 * ArchiveWriter#options()} are resolved against its archive ({@link #resolve}): no setting is left
 * to the archive in them.
 */
public final class WriterOptions {
  /**
   * What this writer asks of the settings the archive records (FORMAT.md "Manifest"); null keeps
   * the archive's (for a new archive: {@link #defaultCodec} of its storage, zstd if a zstd level is
   * asked; groups of {@value #DEFAULT_GROUP_BYTES} bytes of entries up to {@value
   * #DEFAULT_GROUP_ENTRY_MAX_BYTES}; level {@value ArchiveSettings#DEFAULT_ZSTD_LEVEL}; {@value
   * #DEFAULT_BUCKET_CAPACITY} records a bucket).
   *
   * @param codec how entry content is compressed (entries that do not shrink are stored raw)
   * @param zstdLevel the zstd level of new entries, 1 to 19
   * @param groupBytes small entries are stored together in groups (FORMAT.md "Group") of about this
   *     many raw bytes, compressed as one; 0 stores every entry on its own. Only with a codec:
   *     stored raw, a group would save nothing but headers and cost a lookup in the group
   * @param groupEntryMaxBytes entries whose content is at most this long go into groups (given with
   *     {@code groupBytes})
   * @param bucketCapacity the most records in one bucket of new segments (65536 records are 2 MiB)
   * @param dictionary a zstd dictionary to store and use when creating, or null for none
   */
  public record Asked(
      Codec codec,
      Integer zstdLevel,
      Integer groupBytes,
      Integer groupEntryMaxBytes,
      Integer bucketCapacity,
      byte[] dictionary) {
    public Asked {
      if (codec != null) {
        checkDictionary(dictionary, codec);
      }
      if (bucketCapacity != null && bucketCapacity < 1) {
        throw new IllegalArgumentException("bucket capacity must be at least 1: " + bucketCapacity);
      }
      if ((groupBytes == null) != (groupEntryMaxBytes == null)) {
        throw new IllegalArgumentException("group size and group entry size go together");
      }
      if (groupBytes != null) {
        ArchiveSettings.checkGroups(groupBytes, groupEntryMaxBytes);
      }
      if (zstdLevel != null) {
        ArchiveSettings.checkZstdLevel(zstdLevel);
      }
      dictionary = dictionary == null ? null : dictionary.clone();
    }
  }

  /**
   * This writing session's settings.
   *
   * @param maxPartBytes a part file is closed and another started once it passes this size (default
   *     {@value #DEFAULT_MAX_PART_BYTES})
   * @param streamThresholdBytes sources larger than this are streamed and stored uncompressed
   *     instead of being held in memory (default {@value #DEFAULT_STREAM_THRESHOLD_BYTES}, less
   *     than 2 GiB)
   * @param replace an added name that exists replaces the entry; without it (the default) that is
   *     an error
   * @param breakLock take over the writer lock of a writer that is gone (never automatic)
   * @param blockAlignment keep entries no larger than a block from straddling a block boundary of
   *     their part file, by padding before them (FORMAT.md "Part file"): {@link
   *     #ALIGN_TO_STORAGE_BLOCKS} (the default) uses the storage's block size (an HDFS block; local
   *     disk has none), 0 never pads, a positive value is the block size to align to
   */
  public record Session(
      long maxPartBytes,
      long streamThresholdBytes,
      boolean replace,
      boolean breakLock,
      long blockAlignment) {
    public Session {
      if (maxPartBytes < 1
          || streamThresholdBytes < 0
          || streamThresholdBytes > Integer.MAX_VALUE - 64) {
        throw new IllegalArgumentException(
            "part size and stream threshold must be positive, threshold < 2 GiB");
      }
      if (blockAlignment < ALIGN_TO_STORAGE_BLOCKS) {
        throw new IllegalArgumentException(
            "block alignment must be -1, 0 or a size: " + blockAlignment);
      }
    }
  }

  /**
   * What the writer does after each commit.
   *
   * @param autoCompact run the size-tiered compaction policy (default true)
   * @param maxSegments the policy keeps at most this many segments (default {@value
   *     #DEFAULT_MAX_SEGMENTS})
   * @param reclaimRatio content is rewritten when dead bytes pass this share of the part bytes (0
   *     to 1; above 1 never; default {@value #DEFAULT_RECLAIM_RATIO})
   * @param gracePeriodMillis files a commit made unreferenced are deleted only this long after, so
   *     that readers of older generations keep reading (default 15 minutes)
   */
  public record Maintenance(
      boolean autoCompact, int maxSegments, double reclaimRatio, long gracePeriodMillis) {
    public Maintenance {
      if (maxSegments < 1 || reclaimRatio < 0 || gracePeriodMillis < 0) {
        throw new IllegalArgumentException(
            "max segments must be at least 1, reclaim ratio and grace period not negative");
      }
    }
  }

  private final Asked asked;
  private final Session session;
  private final Maintenance maintenance;

  public WriterOptions(Asked asked, Session session, Maintenance maintenance) {
    this.asked = java.util.Objects.requireNonNull(asked);
    this.session = java.util.Objects.requireNonNull(session);
    this.maintenance = java.util.Objects.requireNonNull(maintenance);
  }

  public Asked asked() {
    return asked;
  }

  public Session session() {
    return session;
  }

  public Maintenance maintenance() {
    return maintenance;
  }

  // The settings one by one, as the write path reads them; the archive's (null in Asked) are known
  // only once the options are resolved: before, their int accessors throw.

  /** The codec; null (the archive's) only before resolution. */
  public Codec codec() {
    return asked.codec();
  }

  public int zstdLevel() {
    return resolvedInt(asked.zstdLevel(), "zstd level");
  }

  public int groupBytes() {
    return resolvedInt(asked.groupBytes(), "group size");
  }

  public int groupEntryMaxBytes() {
    return resolvedInt(asked.groupEntryMaxBytes(), "group entry size");
  }

  public int bucketCapacity() {
    return resolvedInt(asked.bucketCapacity(), "bucket capacity");
  }

  public byte[] dictionary() {
    return asked.dictionary() == null ? null : asked.dictionary().clone();
  }

  public long maxPartBytes() {
    return session.maxPartBytes();
  }

  public long streamThresholdBytes() {
    return session.streamThresholdBytes();
  }

  public boolean replace() {
    return session.replace();
  }

  public boolean breakLock() {
    return session.breakLock();
  }

  public long blockAlignment() {
    return session.blockAlignment();
  }

  public boolean autoCompact() {
    return maintenance.autoCompact();
  }

  public int maxSegments() {
    return maintenance.maxSegments();
  }

  public double reclaimRatio() {
    return maintenance.reclaimRatio();
  }

  public long gracePeriodMillis() {
    return maintenance.gracePeriodMillis();
  }

  private static int resolvedInt(Integer value, String what) {
    if (value == null) {
      throw new IllegalStateException(what + " is the archive's until the options are resolved");
    }
    return value;
  }

  /** {@link Session#blockAlignment()}: align to the block size the storage reports for a part. */
  public static final long ALIGN_TO_STORAGE_BLOCKS = -1;

  /**
   * For the builder's {@code int} setters ({@link Builder#bucketCapacity}, {@link
   * Builder#zstdLevel}): keep the archive's own, as null does in {@link Asked}.
   */
  public static final int ARCHIVE_SETTING = 0;

  /** For {@link Builder#groups}: keep the archive's groups. */
  public static final int ARCHIVE_GROUPS = -1;

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

  /** Whether entries of {@code length} bytes go into groups. REQUIRES: resolved options. */
  public boolean groups(int length) {
    return groupBytes() > 0 && codec() != Codec.NONE && length <= groupEntryMaxBytes();
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
    ArchiveSettings resolved =
        new ArchiveSettings(
            asked.codec() == null ? from.codec() : asked.codec(),
            asked.groupBytes() == null ? from.groupBytes() : asked.groupBytes(),
            asked.groupBytes() == null ? from.groupEntryMaxBytes() : asked.groupEntryMaxBytes(),
            asked.zstdLevel() == null ? from.zstdLevel() : asked.zstdLevel());
    checkDictionary(asked.dictionary(), resolved.codec());
    if (asked.zstdLevel() != null && asked.codec() == null && resolved.codec() != Codec.ZSTD) {
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
    int capacity = asked.bucketCapacity() == null ? archiveCapacity : asked.bucketCapacity();
    if (base != null && capacity != archiveCapacity) {
      changes.add("bucket capacity " + archiveCapacity + " -> " + capacity + " for new segments");
    }
    return with(
        new Asked(
            resolved.codec(),
            resolved.zstdLevel(),
            resolved.groupBytes(),
            resolved.groupEntryMaxBytes(),
            capacity,
            asked.dictionary()));
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
    return ArchiveSettings.defaultsWith(
        asked.zstdLevel() != null ? Codec.ZSTD : defaultCodec(storage));
  }

  private static void checkDictionary(byte[] dictionary, Codec codec) {
    if (dictionary != null && codec != Codec.ZSTD) {
      throw new IllegalArgumentException(
          "a dictionary needs the zstd codec, not " + codec.displayName());
    }
  }

  /** The settings a manifest records of these options. REQUIRES: resolved options. */
  public ArchiveSettings settings() {
    return new ArchiveSettings(codec(), groupBytes(), groupEntryMaxBytes(), zstdLevel());
  }

  /** The same options with another dictionary. */
  public WriterOptions withDictionary(byte[] value) {
    return with(
        new Asked(
            asked.codec(),
            asked.zstdLevel(),
            asked.groupBytes(),
            asked.groupEntryMaxBytes(),
            asked.bucketCapacity(),
            value));
  }

  private WriterOptions with(Asked changed) {
    return new WriterOptions(changed, session, maintenance);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builder with the defaults: the archive's codec, groups, zstd level and bucket capacity (for a
   * new archive: {@link #defaultCodec} of its storage, groups of 2 KiB of entries up to 512 bytes,
   * zstd level 3, 65536 records a bucket), no dictionary, 1 GiB parts, no replacing, at most 8
   * segments, reclaim at half dead, 15 minutes of grace.
   */
  public static final class Builder {
    private Codec codec;
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
    private int groupBytes = ARCHIVE_GROUPS;
    private int groupEntryMaxBytes = ARCHIVE_GROUPS;
    private int zstdLevel = ARCHIVE_SETTING;

    /**
     * Packing for size: zstd at {@link #SOLID_ZSTD_LEVEL}, groups of {@link #SOLID_GROUP_BYTES} of
     * entries up to {@link #SOLID_GROUP_ENTRY_MAX_BYTES}; a later call may change any of them.
     */
    public Builder solid() {
      return codec(Codec.ZSTD)
          .zstdLevel(SOLID_ZSTD_LEVEL)
          .groups(SOLID_GROUP_BYTES, SOLID_GROUP_ENTRY_MAX_BYTES);
    }

    /** The zstd level of new entries, 1 to 19; {@link #ARCHIVE_SETTING}: the archive's. */
    public Builder zstdLevel(int value) {
      zstdLevel = value;
      return this;
    }

    /**
     * Groups of about {@code bytes} raw bytes of entries of at most {@code entryMax}; 0, 0: none.
     */
    public Builder groups(int bytes, int entryMax) {
      this.groupBytes = bytes;
      this.groupEntryMaxBytes = entryMax;
      return this;
    }

    /** The codec of new entries; null: the archive's. */
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
      boolean archiveGroups = groupBytes == ARCHIVE_GROUPS && groupEntryMaxBytes == ARCHIVE_GROUPS;
      return new WriterOptions(
          new Asked(
              codec,
              zstdLevel == ARCHIVE_SETTING ? null : zstdLevel,
              archiveGroups ? null : groupBytes,
              archiveGroups ? null : groupEntryMaxBytes,
              bucketCapacity == ARCHIVE_SETTING ? null : bucketCapacity,
              dictionary),
          new Session(maxPartBytes, streamThresholdBytes, replace, breakLock, blockAlignment),
          new Maintenance(autoCompact, maxSegments, reclaimRatio, gracePeriodMillis));
    }
  }
}
