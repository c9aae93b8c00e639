package io.hpf.bench.paper;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One way of storing many small files, as the paper suite drives it: build from a local staging
 * directory, then read by name and in full. hpf, plain files, SequenceFile, MapFile and HAR each
 * implement it.
 */
public interface BenchSystem {
  /** "hpf", "plain", "seqfile-block", ... */
  String name();

  /**
   * Stores the files {@code names} (relative paths under {@code staged}) at {@code target}, which
   * does not exist yet. Timed by the caller, so it does everything a user would have to do.
   */
  void create(BenchTarget target, Path staged, List<String> names) throws Exception;

  /** Opens what {@link #create} stored, for reading. */
  Reader open(BenchTarget target) throws IOException;

  /** A reader; not thread-safe. */
  interface Reader extends Closeable {
    /** The content of {@code name}, or null if there is no such file. */
    byte[] get(String name) throws IOException;

    /** Reads every file once, in the system's own order; returns the bytes read. */
    long scan() throws IOException;
  }
}
