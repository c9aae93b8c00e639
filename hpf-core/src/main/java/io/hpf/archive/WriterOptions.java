package io.hpf.archive;

import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.List;

/**
 * Settings of an {@link ArchiveWriter}, validated once. Immutable; build with {@link #builder()}.
 * Those an archive keeps in its manifest (codec, groups, bucket capacity) default to the archive's
 * own; a writer's {@link ArchiveWriter#options()} are resolved against its archive ({@link
 * #resolve}).
 *
 * @param codec how entry content is compressed (entries that do not shrink are stored raw), or null
 *     (the default) for the archive's: {@link #defaultCodec} of its storage for a new archive (zstd
 *     if a zstd level is asked), zstd for one whose manifest records no codec (versions 1 to 4 were
 *     written with zstd)
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
 *     many raw bytes, compressed as one; 0 stores every entry on its own; {@link #ARCHIVE_GROUPS}
 *     (the default) the archive's. Only with a codec: stored raw, a group would save nothing but
 *     headers and cost a lookup in the group
 * @param groupEntryMaxBytes entries whose content is at most this long go into groups ({@link
 *     #ARCHIVE_GROUPS} with {@code groupBytes})
 * @param zstdLevel the zstd level of new entries (1 to 19), or {@link #ARCHIVE_SETTING} (the
 *     default) for the archive's (3 for a new archive and for one whose manifest records none)
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
    int groupEntryMaxBytes,
    int zstdLevel) {

  /** {@link #blockAlignment()}: align to the block size the storage reports for each part file. */
  public static final long ALIGN_TO_STORAGE_BLOCKS = -1;

  /** A setting the archive keeps in its manifest: use the archive's. */
  public static final int ARCHIVE_SETTING = 0;

  /** {@link #groupBytes()}: the archive's groups. */
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

  public WriterOptions {
    if (codec != null) {
      checkDictionary(dictionary, codec);
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
    if (groupBytes != ARCHIVE_GROUPS || groupEntryMaxBytes != ARCHIVE_GROUPS) {
      ArchiveSettings.checkGroups(groupBytes, groupEntryMaxBytes);
    }
    if (zstdLevel != ARCHIVE_SETTING) {
      ArchiveSettings.checkZstdLevel(zstdLevel);
    }
    dictionary = dictionary == null ? null : dictionary.clone();
  }

  /** Whether entries of {@code length} bytes go into groups. REQUIRES: resolved options. */
  public boolean groups(int length) {
    return groupBytes > 0 && codec != Codec.NONE && length <= groupEntryMaxBytes;
  }

  /**
   * These options with the archive's settings where they leave them to the archive: those of {@code
   * base}'s manifest ({@link #settingsOf}), or for a new archive ({@code base} null) the defaults
   * of its {@code storage}. Each setting these options change from the archive's is added to {@code
   * changes}, one line for the user.
   */
  WriterOptions resolve(Manifest base, Storage storage, List<String> changes) {
    ArchiveSettings archive = base == null ? null : base.writerSettings();
    ArchiveSettings from = base != null ? settingsOf(base) : newArchiveSettings(storage);
    ArchiveSettings resolved =
        new ArchiveSettings(
            codec == null ? from.codec() : codec,
            groupBytes == ARCHIVE_GROUPS ? from.groupBytes() : groupBytes,
            groupBytes == ARCHIVE_GROUPS ? from.groupEntryMaxBytes() : groupEntryMaxBytes,
            zstdLevel == ARCHIVE_SETTING ? from.zstdLevel() : zstdLevel);
    checkDictionary(dictionary, resolved.codec());
    if (zstdLevel != ARCHIVE_SETTING && codec == null && resolved.codec() != Codec.ZSTD) {
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
    int archiveCapacity = base == null ? DEFAULT_BUCKET_CAPACITY : base.bucketCapacity();
    int capacity = bucketCapacity == ARCHIVE_SETTING ? archiveCapacity : bucketCapacity;
    if (base != null && capacity != archiveCapacity) {
      changes.add("bucket capacity " + archiveCapacity + " -> " + capacity + " for new segments");
    }
    return with(
        resolved.codec(),
        dictionary,
        capacity,
        resolved.groupBytes(),
        resolved.groupEntryMaxBytes(),
        resolved.zstdLevel());
  }

  /** These options as a writer of a new archive on {@code storage} resolves them. */
  public WriterOptions resolveForNew(Storage storage) {
    return resolve(null, storage, new java.util.ArrayList<>());
  }

  /**
   * What a new archive on {@code storage} starts from: its default codec (zstd when a zstd level is
   * asked, there being no codec of the archive's to keep), the default groups and level.
   */
  private ArchiveSettings newArchiveSettings(Storage storage) {
    return defaultsWith(zstdLevel != ARCHIVE_SETTING ? Codec.ZSTD : defaultCodec(storage));
  }

  /** The default groups and zstd level with {@code codec}. */
  private static ArchiveSettings defaultsWith(Codec codec) {
    return new ArchiveSettings(codec, DEFAULT_GROUP_BYTES, DEFAULT_GROUP_ENTRY_MAX_BYTES);
  }

  /**
   * What the writers of the archive of {@code manifest} store new entries with when nothing says
   * otherwise: its manifest's settings, or for one that records none (versions 1 to 4) what those
   * versions' writers did: zstd, the default groups and level.
   */
  public static ArchiveSettings settingsOf(Generation manifest) {
    ArchiveSettings recorded = manifest.writerSettings();
    return recorded != null ? recorded : defaultsWith(Codec.ZSTD);
  }

  /**
   * What the writers of the archive in {@code storage} store new entries with ({@link #settingsOf}
   * its newest manifest), or null when it has no committed manifest yet.
   */
  public static ArchiveSettings settingsOf(Storage storage) throws IOException {
    List<io.hpf.store.StoredFile> files = storage.list();
    return ManifestStore.newestGeneration(files) < 0
        ? null
        : settingsOf(ManifestStore.readNewest(storage, files));
  }

  private static void checkDictionary(byte[] dictionary, Codec codec) {
    if (dictionary != null && codec != Codec.ZSTD) {
      throw new IllegalArgumentException(
          "a dictionary needs the zstd codec, not " + codec.displayName());
    }
  }

  /** The settings a manifest records of these options. REQUIRES: resolved options. */
  public ArchiveSettings settings() {
    return new ArchiveSettings(codec, groupBytes, groupEntryMaxBytes, zstdLevel);
  }

  @Override
  public byte[] dictionary() {
    return dictionary == null ? null : dictionary.clone();
  }

  /** The same options with another dictionary. */
  public WriterOptions withDictionary(byte[] value) {
    return with(codec, value, bucketCapacity, groupBytes, groupEntryMaxBytes, zstdLevel);
  }

  /** The same options but for these. */
  private WriterOptions with(
      Codec codec,
      byte[] dictionary,
      int bucketCapacity,
      int groupBytes,
      int groupEntryMaxBytes,
      int zstdLevel) {
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
        groupEntryMaxBytes,
        zstdLevel);
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
          groupEntryMaxBytes,
          zstdLevel);
    }
  }
}
