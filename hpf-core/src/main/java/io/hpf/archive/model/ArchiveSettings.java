package io.hpf.archive.model;

/**
 * How an archive's writers store new entries, kept in its manifest (FORMAT.md "Manifest", version
 * 5; the zstd level since version 6) so that every later writer stores them the same way unless
 * told otherwise: the codec, the groups of small entries and how hard zstd works. Immutable.
 *
 * @param codec how new entries are compressed (entries that do not shrink are stored raw)
 * @param groupBytes small entries are gathered into groups of about this many raw bytes; 0 none
 * @param groupEntryMaxBytes the largest entry that goes into a group; at most {@code groupBytes}
 * @param zstdLevel the zstd level entries are compressed at when the codec is zstd ({@value
 *     #MIN_ZSTD_LEVEL} to {@value #MAX_ZSTD_LEVEL}); kept whatever the codec, so that an archive
 *     switched to lz4 and back keeps its level
 */
public record ArchiveSettings(Codec codec, int groupBytes, int groupEntryMaxBytes, int zstdLevel)
    implements java.io.Serializable { // sent to a job's tasks; stored only as FORMAT.md says
  private static final long serialVersionUID = 1L;

  /** The largest group size a writer takes: with one more member, a group stays under 1 MiB. */
  public static final int MAX_GROUP_BYTES = 256 << 10;

  /**
   * zstd's own default level, and hpf's: measured on the paper suite's corpora (docs/BENCHMARKS.md,
   * "Codecs, groups and packing for size"), packing at it keeps pace with {@code tar | zstd -3};
   * higher levels cost packing time, never read time.
   */
  public static final int DEFAULT_ZSTD_LEVEL = 3;

  public static final int MIN_ZSTD_LEVEL = 1;

  /**
   * zstd's highest level without its "ultra" levels, whose windows of up to 128 MiB a reader would
   * have to hold while it streams an entry.
   */
  public static final int MAX_ZSTD_LEVEL = 19;

  public ArchiveSettings {
    if (codec == null) {
      throw new IllegalArgumentException("codec is required");
    }
    checkGroups(groupBytes, groupEntryMaxBytes);
    checkZstdLevel(zstdLevel);
  }

  /** The settings of an archive whose manifest (versions 1 to 5) records no level. */
  public ArchiveSettings(Codec codec, int groupBytes, int groupEntryMaxBytes) {
    this(codec, groupBytes, groupEntryMaxBytes, DEFAULT_ZSTD_LEVEL);
  }

  /** Throws unless {@code level} is a zstd level a writer takes. */
  public static void checkZstdLevel(int level) {
    if (level < MIN_ZSTD_LEVEL || level > MAX_ZSTD_LEVEL) {
      throw new IllegalArgumentException(
          "zstd level must be " + MIN_ZSTD_LEVEL + " to " + MAX_ZSTD_LEVEL + ": " + level);
    }
  }

  /** Throws unless groups of {@code groupBytes} of entries up to {@code entryMax} are allowed. */
  public static void checkGroups(int groupBytes, int entryMax) {
    if (groupBytes < 0 || groupBytes > MAX_GROUP_BYTES || entryMax < 0 || entryMax > groupBytes) {
      throw new IllegalArgumentException(
          "group size must be 0 to "
              + MAX_GROUP_BYTES
              + " bytes and the largest grouped entry at most the group size: "
              + groupBytes
              + ", "
              + entryMax);
    }
  }

  /**
   * How these settings read in a message: {@code zstd level 3, groups of 2048 bytes of entries up
   * to 512}; the level only with zstd.
   */
  public String describe() {
    return codec.displayName()
        + (codec == Codec.ZSTD ? " level " + zstdLevel : "")
        + (groupBytes == 0
            ? ", no groups"
            : ", groups of " + groupBytes + " bytes of entries up to " + groupEntryMaxBytes);
  }

  /** The default groups and zstd level with {@code codec}. */
  static ArchiveSettings defaultsWith(Codec codec) {
    return new ArchiveSettings(
        codec, WriterOptions.DEFAULT_GROUP_BYTES, WriterOptions.DEFAULT_GROUP_ENTRY_MAX_BYTES);
  }

  /**
   * What the writers of the archive of {@code manifest} store new entries with when nothing says
   * otherwise: its manifest's settings, or for one that records none (versions 1 to 4) what those
   * versions' writers did: zstd, the default groups and level.
   */
  public static ArchiveSettings recordedIn(Generation manifest) {
    ArchiveSettings recorded = manifest.writerSettings();
    return recorded != null ? recorded : defaultsWith(Codec.ZSTD);
  }
}
