package io.hpf.archive;

import java.util.List;

/** One commit was given the same entry name more than once. Names them all (up to a limit). */
public final class DuplicateEntryException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final List<String> names;

  public DuplicateEntryException(List<String> names, long total) {
    super(
        "duplicate entry names: "
            + String.join(", ", names.stream().map(n -> "'" + n + "'").toList())
            + (total > names.size() ? " and " + (total - names.size()) + " more" : ""));
    this.names = List.copyOf(names);
  }

  public List<String> names() {
    return names;
  }
}
