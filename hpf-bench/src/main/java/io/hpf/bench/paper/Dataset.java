package io.hpf.bench.paper;

import java.io.IOException;
import java.util.Iterator;

/**
 * A deterministic set of small files: the same names and bytes on every machine and run, produced
 * one at a time so that no dataset has to fit in memory.
 */
public interface Dataset {
  /** "hpf-logs", "sf-text-30k", ... */
  String name();

  /** How many files {@link #files()} yields. */
  int size();

  /** The files, in a fixed order. */
  Iterator<GeneratedFile> files() throws IOException;

  /** What the dataset is, in one line, for the results. */
  String description();
}
