package io.hpf.archive;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.WriterOptions;

/**
 * How a user asks new entries to be packed, one rule for every front end: the CLI's flags ({@code
 * --codec}, {@code --level}, {@code --solid}, {@code --group-size}, {@code --group-max}),
 * MapReduce's {@code hpf.output.*} settings and Spark's write options. What the request leaves out
 * stays the archive's (its manifest's writer settings), as {@link WriterOptions#resolve} decides.
 *
 * @param codec the codec asked for, or null
 * @param zstdLevel the zstd level asked for (1 to 19), or null
 * @param solid pack for size ({@link WriterOptions.Builder#solid()}): zstd, its level and groups
 *     unless asked otherwise
 * @param groupBytes the group size asked for, or null
 * @param groupEntryMaxBytes the largest grouped entry asked for, or null
 */
public record PackingRequest(
    Codec codec, Integer zstdLevel, boolean solid, Integer groupBytes, Integer groupEntryMaxBytes)
    implements java.io.Serializable { // sent to a job's tasks, never stored
  private static final long serialVersionUID = 1L;

  /** Nothing asked: the archive's settings. */
  public static final PackingRequest ARCHIVES = new PackingRequest(null, null, false, null, null);

  /** Throws, in the user's words, when the request cannot be met: a level or solid without zstd. */
  public PackingRequest {
    if ((zstdLevel != null || solid) && codec != null && codec != Codec.ZSTD) {
      throw new IllegalArgumentException(
          "solid packing and zstd levels need the zstd codec, not " + codec.displayName());
    }
  }

  /**
   * A request given as text (a job's settings, a write's options), each value null when not given;
   * a value that does not parse is refused naming its setting.
   *
   * @param levelName and {@code solidName}: how the user names those settings, for messages
   */
  public static PackingRequest parse(
      String codec, String level, String solid, String levelName, String solidName) {
    Integer zstdLevel = null;
    if (level != null) {
      try {
        zstdLevel = Integer.parseInt(level.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(levelName + " must be a number, not '" + level + "'");
      }
      io.hpf.archive.model.ArchiveSettings.checkZstdLevel(zstdLevel);
    }
    if (solid != null && !solid.equals("true") && !solid.equals("false")) {
      throw new IllegalArgumentException(solidName + " must be true or false, not '" + solid + "'");
    }
    return new PackingRequest(
        codec == null ? null : Codec.parse(codec), zstdLevel, "true".equals(solid), null, null);
  }

  /** Only a codec asked for (null: the archive's). */
  public static PackingRequest codec(Codec codec) {
    return new PackingRequest(codec, null, false, null, null);
  }

  /** The request on top of {@code builder}; a size given alone takes the other's default. */
  public WriterOptions.Builder applyTo(WriterOptions.Builder builder) {
    if (solid) {
      builder.solid();
    }
    if (codec != null) {
      builder.codec(codec);
    }
    if (zstdLevel != null) {
      builder.zstdLevel(zstdLevel);
    }
    if (groupBytes != null || groupEntryMaxBytes != null) {
      int bytes =
          groupBytes != null
              ? groupBytes
              : solid ? WriterOptions.SOLID_GROUP_BYTES : WriterOptions.DEFAULT_GROUP_BYTES;
      int entryMax =
          groupEntryMaxBytes != null
              ? groupEntryMaxBytes
              : solid
                  ? WriterOptions.SOLID_GROUP_ENTRY_MAX_BYTES
                  : WriterOptions.DEFAULT_GROUP_ENTRY_MAX_BYTES;
      builder.groups(bytes, Math.min(entryMax, bytes));
    }
    return builder;
  }
}
