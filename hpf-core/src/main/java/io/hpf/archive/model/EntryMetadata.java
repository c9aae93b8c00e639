package io.hpf.archive.model;

import java.util.Map;

/**
 * What is stored with an entry besides its name and content.
 *
 * @param mtimeMillis modification time, ms since the epoch
 * @param mode POSIX permission bits (0644 when unknown)
 * @param attributes user key/value pairs (UTF-8)
 */
public record EntryMetadata(long mtimeMillis, int mode, Map<String, String> attributes) {
  public static final int DEFAULT_MODE = 0644;

  public EntryMetadata {
    attributes = io.hpf.archive.model.Attributes.sorted(attributes);
  }

  /** Metadata with the given modification time, mode 0644 and no attributes. */
  public static EntryMetadata of(long mtimeMillis) {
    return new EntryMetadata(mtimeMillis, DEFAULT_MODE, Map.of());
  }
}
