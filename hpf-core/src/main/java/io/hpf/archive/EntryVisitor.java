package io.hpf.archive;

import io.hpf.format.EntryInfo;
import java.io.IOException;

/** Receives entries from {@link ArchiveReader#scan}. */
@FunctionalInterface
public interface EntryVisitor {
  void visit(EntryInfo info, byte[] content) throws IOException;
}
