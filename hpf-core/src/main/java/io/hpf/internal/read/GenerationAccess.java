package io.hpf.internal.read;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.DictionarySource;
import io.hpf.internal.format.EntryReader;
import io.hpf.internal.format.PartEntry;
import java.io.IOException;
import java.util.List;

/**
 * What the code that maintains archives (compaction, recovery) reads of one open generation beyond
 * the public reader: its segments, its dictionaries and a walk of rows in part order. The archive's
 * reader hands it to the writer; not API.
 */
public interface GenerationAccess {
  /** What a walk does with each entry: its row, the part's reader and the entry found. */
  @FunctionalInterface
  interface PartVisitor {
    void visit(EntryInfo row, EntryReader part, PartEntry entry) throws IOException;
  }

  /** The generation's segments, newest first. */
  List<SegmentReader> segmentsNewestFirst();

  /** Whether the generation has a live entry of this name. */
  boolean exists(String name) throws IOException;

  /** The dictionaries the generation lists, loaded once. */
  DictionarySource dictionaries();

  /** Every live entry's row, sorted by part and offset: the order of a sequential scan. */
  List<EntryInfo> entriesInPartOrder() throws IOException;

  /**
   * Finds the entry of each row (rows of this generation, in part order) through one read-ahead
   * window per part; the catalog and the entry header must agree on the name.
   */
  void walk(List<EntryInfo> rows, PartVisitor visitor) throws IOException;
}
