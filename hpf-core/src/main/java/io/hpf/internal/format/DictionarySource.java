package io.hpf.internal.format;

import java.io.IOException;

/** Finds the zstd dictionaries that entries name (an archive's, loaded once and kept). */
@FunctionalInterface
public interface DictionarySource {
  /** No dictionaries: an entry that names one is corruption. */
  DictionarySource NONE = id -> null;

  /**
   * The dictionary with this id, or null if there is none of that id (the caller reports the entry
   * that names it). Never called with id 0.
   */
  Dictionary dictionary(int id) throws IOException;
}
