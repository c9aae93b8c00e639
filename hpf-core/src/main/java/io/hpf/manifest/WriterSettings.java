package io.hpf.manifest;

import io.hpf.format.Codec;

/**
 * How an archive's writers store new entries, kept in its manifest (FORMAT.md "Manifest", version
 * 5) so that every later writer stores them the same way unless told otherwise: the codec and the
 * groups of small entries. Immutable.
 *
 * @param codec how new entries are compressed (entries that do not shrink are stored raw)
 * @param groupBytes small entries are gathered into groups of about this many raw bytes; 0 none
 * @param groupEntryMaxBytes the largest entry that goes into a group; at most {@code groupBytes}
 */
public record WriterSettings(Codec codec, int groupBytes, int groupEntryMaxBytes) {
  /** The largest group size a writer takes: with one more member, a group stays under 1 MiB. */
  public static final int MAX_GROUP_BYTES = 256 << 10;

  public WriterSettings {
    if (codec == null) {
      throw new IllegalArgumentException("codec is required");
    }
    checkGroups(groupBytes, groupEntryMaxBytes);
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

  /** How these settings read in a message: {@code zstd, groups of 2048 bytes of entries ≤ 512}. */
  public String describe() {
    return codec.displayName()
        + (groupBytes == 0
            ? ", no groups"
            : ", groups of " + groupBytes + " bytes of entries up to " + groupEntryMaxBytes);
  }
}
