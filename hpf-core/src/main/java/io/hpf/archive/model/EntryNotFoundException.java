package io.hpf.archive.model;

import java.io.FileNotFoundException;

/** The archive has no entry of that name (in the reader's snapshot). */
public final class EntryNotFoundException extends FileNotFoundException {
  private static final long serialVersionUID = 1L;
  private final String name;

  public EntryNotFoundException(String archive, String name) {
    super(archive + ": not found: '" + name + "'");
    this.name = name;
  }

  public String name() {
    return name;
  }
}
