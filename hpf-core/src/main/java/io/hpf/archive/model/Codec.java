package io.hpf.archive.model;

import java.util.Locale;

/**
 * How an entry's content (or a catalog block) is stored. The id, not the ordinal, is what is
 * written (FORMAT.md "Codecs").
 */
public enum Codec {
  NONE(0),
  LZ4(1),
  ZSTD(2);

  private final int id;

  /** values() copies its array at every call: once per row read, that showed in profiles. */
  private static final Codec[] ALL = values();

  Codec(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  /** The codec with this on-disk id, or null if the id is unknown. */
  public static Codec byId(int id) {
    for (Codec c : ALL) {
      if (c.id == id) {
        return c;
      }
    }
    return null;
  }

  /** Parses a user-facing name: none, lz4, zstd. */
  public static Codec parse(String name) {
    for (Codec c : values()) {
      if (c.name().equalsIgnoreCase(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown codec '" + name + "' (expected none, lz4, zstd)");
  }

  public String displayName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
