package io.hpf.internal.format;

/**
 * The one grammar of the names of an archive's files (FORMAT.md "File names"): how each is made
 * from its number and how a name is read back. Writers, readers, the cleaner and the verifier all
 * use it, and only names it recognizes are ever deleted.
 */
public final class FileNames {
  private FileNames() {}

  public static final String MANIFEST_PREFIX = "manifest-";
  public static final String MANIFEST_SUFFIX = ".hpfm";
  public static final String TEMP_SUFFIX = ".tmp";

  /** What a file of an archive directory is, by its name. */
  public enum Kind {
    MANIFEST,
    MANIFEST_TEMP,
    PART,
    BUCKET,
    CATALOG,
    DICTIONARY,
    /** A segment file (version 4): catalog, buckets and dictionaries in one file. */
    SEGMENT,
    /** Not a name hpf gives: left alone. */
    OTHER
  }

  private static final java.util.regex.Pattern GRAMMAR =
      java.util.regex.Pattern.compile(
          "manifest-(\\d{10})\\.hpfm(\\.tmp)?|part-(\\d{8})\\.hpfp|seg-(\\d{8})(?:-b(\\d{6})\\.hpfx|\\.hpfc|(\\.hpfs))|dict-(\\d{8})\\.hpfd");

  /** The kind of file a name is. */
  public static Kind kindOf(String name) {
    java.util.regex.Matcher m = GRAMMAR.matcher(name);
    if (!m.matches()) {
      return Kind.OTHER;
    }
    if (m.group(1) != null) {
      return m.group(2) == null ? Kind.MANIFEST : Kind.MANIFEST_TEMP;
    }
    if (m.group(3) != null) {
      return Kind.PART;
    }
    if (m.group(4) != null) {
      return m.group(5) != null ? Kind.BUCKET : m.group(6) != null ? Kind.SEGMENT : Kind.CATALOG;
    }
    return Kind.DICTIONARY;
  }

  /** Whether hpf gives files this name (only such files are ever deleted). */
  public static boolean isArchiveFile(String name) {
    return kindOf(name) != Kind.OTHER;
  }

  /** The segment id of a segment, catalog or bucket file name, or -1. */
  public static int segmentIdOf(String name) {
    Kind kind = kindOf(name);
    return kind == Kind.BUCKET || kind == Kind.CATALOG || kind == Kind.SEGMENT
        ? Integer.parseInt(name.substring(4, 12))
        : -1;
  }

  /**
   * {@code value} in decimal, zero-padded to at least {@code width} digits (as {@code %0Nd}; no
   * Formatter, whose locale machinery costs a short-lived command more than its work).
   */
  static String digits(long value, int width) {
    String plain = Long.toString(value);
    return plain.length() >= width || value < 0
        ? plain
        : "0".repeat(width - plain.length()) + plain;
  }

  public static String manifestFileName(long generation) {
    return "manifest-" + digits(generation, 10) + ".hpfm";
  }

  public static String partFileName(int partId) {
    return "part-" + digits(partId, 8) + ".hpfp";
  }

  /**
   * The part id of a part file name, or -1 if the name is not a part file's. Part ids are positive.
   */
  public static int partIdOf(String fileName) {
    if (!fileName.startsWith("part-") || !fileName.endsWith(".hpfp") || fileName.length() != 18) {
      return -1;
    }
    String digits = fileName.substring(5, 13);
    if (!digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return -1;
    }
    return Integer.parseInt(digits);
  }

  public static boolean isPartFileName(String fileName) {
    return partIdOf(fileName) >= 0;
  }

  public static String bucketFileName(int segmentId, int bucketNo) {
    return "seg-" + digits(segmentId, 8) + "-b" + digits(bucketNo, 6) + ".hpfx";
  }

  public static String catalogFileName(int segmentId) {
    return "seg-" + digits(segmentId, 8) + ".hpfc";
  }

  /** The one file of a segment written by version 4 and later. */
  public static String segmentFileName(int segmentId) {
    return "seg-" + digits(segmentId, 8) + ".hpfs";
  }

  public static String dictionaryFileName(int dictionaryId) {
    return "dict-" + digits(dictionaryId, 8) + ".hpfd";
  }

  /**
   * The generation of a manifest file name, or -1 if the name is not a committed manifest
   * (temporary files end in ".tmp" and are never read).
   */
  public static long manifestGeneration(String fileName) {
    if (!fileName.startsWith(MANIFEST_PREFIX) || !fileName.endsWith(MANIFEST_SUFFIX)) {
      return -1;
    }
    String digits =
        fileName.substring(MANIFEST_PREFIX.length(), fileName.length() - MANIFEST_SUFFIX.length());
    if (digits.length() != 10 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return -1;
    }
    return Long.parseLong(digits);
  }
}
