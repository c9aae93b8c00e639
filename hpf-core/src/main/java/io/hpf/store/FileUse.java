package io.hpf.store;

/**
 * What a file is opened for, so that storage picks how to read it without guessing from its name
 * (as parquet's {@code HadoopInputFile.fromStatus} is told what it needs instead of asking).
 */
public enum FileUse {
  /** Read once, whole or nearly (a lock, a part being recovered or verified). */
  ONCE,
  /**
   * Small and immutable, read again and again by lookups and by every reader that opens the archive
   * (manifests, segment files with their buckets, catalogs and dictionaries): worth keeping pages.
   */
  INDEX,
  /** Large, read at random by entry (part files). */
  CONTENT
}
