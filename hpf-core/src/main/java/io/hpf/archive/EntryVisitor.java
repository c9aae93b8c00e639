package io.hpf.archive;

import java.io.IOException;
import java.io.InputStream;

/** Receives entries from {@link ArchiveReader#scan}. */
@FunctionalInterface
public interface EntryVisitor {
  /**
   * @param content the entry's content, valid only during the call; for entries up to 1 MiB it was
   *     read and checked whole before the call, larger ones are streamed and checked at their end
   */
  void visit(EntryInfo info, InputStream content) throws IOException;
}
