package io.hpf.pack;

import java.io.IOException;
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
}
