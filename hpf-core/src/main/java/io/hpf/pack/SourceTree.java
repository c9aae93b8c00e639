package io.hpf.pack;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A tree of files to pack: a local directory ({@link LocalSourceTree}) or a directory of a Hadoop
 * file system. The packer lists it on one thread while workers read and append.
 */
public interface SourceTree {
  /** Where it is, for messages. */
  String describe();

  /**
   * Gives each regular file to {@code sink}, named {@code prefix} + its path relative to the root
   * with '/'; adds what it leaves out (and why) to {@code skipped}; stops early once {@code stop}
   * says so.
   *
   * @throws IOException naming the file that could not be listed, unless the options say to skip
   */
  void walk(
      String prefix,
      Packer.Options options,
      List<String> skipped,
      Consumer<SourceFile> sink,
      BooleanSupplier stop)
      throws IOException;

  /** One file to pack, as listed by a {@link SourceTree}: its entry name, size and metadata. */
  interface SourceFile {
    /** The entry name it gets (prefix included). */
    String name();

    /** Its size when listed. */
    long size();

    long mtimeMillis();

    /** POSIX permission bits. */
    int mode();

    /** Where it is, for messages ("/data/logs/a.log", "hdfs://nn:8020/in/a.log"). */
    String describe();

    InputStream open() throws IOException;

    /**
     * Reads the whole file into {@code buffer} and returns its length. The buffer has room for one
     * byte more than the size listed, so a file that grew since is noticed, not cut short.
     *
     * @throws IOException naming the file if it grew past the buffer
     */
    default int readInto(byte[] buffer) throws IOException {
      try (InputStream in = open()) {
        int n = in.readNBytes(buffer, 0, buffer.length);
        if (n == buffer.length) {
          throw new IOException(
              describe() + ": file grew while being read (now over " + (n - 1) + " bytes)");
        }
        return n;
      }
    }
  }
}
