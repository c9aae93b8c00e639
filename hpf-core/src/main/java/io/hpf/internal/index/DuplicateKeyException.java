package io.hpf.internal.index;

import java.util.Locale;

/** Two keys given to {@link PerfectHash#build} are equal, so no perfect hash can separate them. */
public final class DuplicateKeyException extends Exception {
  private static final long serialVersionUID = 1L;
  private final long key;

  public DuplicateKeyException(long key) {
    super(String.format(Locale.ROOT, "duplicate 64-bit key %016x", key));
    this.key = key;
  }

  public long key() {
    return key;
  }
}
