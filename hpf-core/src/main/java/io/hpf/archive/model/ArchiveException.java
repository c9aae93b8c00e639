package io.hpf.archive.model;

import java.io.IOException;

/**
 * What hpf itself refuses or finds, as opposed to a failure of the storage underneath (a plain
 * {@link IOException}): damage or an unknown version ({@link CorruptArchiveException}, {@link
 * UnsupportedVersionException}), another writer's lock ({@link ArchiveLockedException}), an archive
 * replaced under a reader ({@link ArchiveReplacedException}) and names that conflict ({@link
 * NameConflictException}). A name that is not there is an {@link EntryNotFoundException}, which is
 * a {@link java.io.FileNotFoundException} as Hadoop's and Java's file APIs expect. Every message
 * names the archive or file, and the entry or offset where it applies.
 */
public abstract class ArchiveException extends IOException {
  private static final long serialVersionUID = 1L;

  protected ArchiveException(String message) {
    super(message);
  }
}
