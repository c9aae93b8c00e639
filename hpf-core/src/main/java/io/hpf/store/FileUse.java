package io.hpf.store;

/**
 * What a file is opened for, so that storage picks how to read it without guessing from its name
 * (as parquet's {@code HadoopInputFile.fromStatus} is told what it needs instead of asking).
 */
public enum FileUse {
  /** Read once, whole or nearly (a manifest, a dictionary, a lock, a part being recovered). */
  ONCE,
  /** Small, read again and again by lookups (bucket and catalog files): worth keeping pages. */
  INDEX,
  /** Large, read at random by entry (part files). */
  CONTENT
}
