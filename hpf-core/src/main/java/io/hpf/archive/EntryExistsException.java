package io.hpf.archive;

import java.util.List;

/** Names were added that the archive already has, without asking to replace them. */
public final class EntryExistsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final List<String> names;

  public EntryExistsException(String archive, List<String> names, long total) {
    super(
        archive
            + ": already has "
            + total
            + " of the added names ("
            + String.join(", ", names.stream().map(n -> "'" + n + "'").toList())
            + (total > names.size() ? ", ..." : "")
            + "); replace them with --replace (the replace option of jobs and Spark writes)");
    this.names = List.copyOf(names);
  }

  public List<String> names() {
    return names;
  }
}
