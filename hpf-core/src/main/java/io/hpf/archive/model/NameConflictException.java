package io.hpf.archive.model;

import java.util.List;

/**
 * The names of a commit conflict, and nothing is committed: a name given twice ({@link
 * Kind#DUPLICATE}), a name the archive has without asking to replace it ({@link Kind#EXISTS}), or a
 * name that would be both a file and a directory ({@link Kind#CLASH}: {@code d/x} beside {@code
 * d/x/y}, which no archive may hold since it could not be extracted or shown as a tree). The
 * message names them.
 */
public final class NameConflictException extends ArchiveException {
  private static final long serialVersionUID = 1L;

  /** What conflicts. */
  public enum Kind {
    /** One commit was given the same name more than once. */
    DUPLICATE,
    /** An added name the archive has, without replacing asked for. */
    EXISTS,
    /** An added name that would be a file and a directory at once. */
    CLASH
  }

  private final Kind kind;
  private final List<String> names;

  private NameConflictException(Kind kind, List<String> names, String message) {
    super(message);
    this.kind = kind;
    this.names = List.copyOf(names);
  }

  /** {@code names} (up to a limit) of {@code total} given more than once. */
  public static NameConflictException duplicate(List<String> names, long total) {
    return new NameConflictException(
        Kind.DUPLICATE,
        names,
        "duplicate entry names: "
            + String.join(", ", names.stream().map(n -> "'" + n + "'").toList())
            + (total > names.size() ? " and " + (total - names.size()) + " more" : ""));
  }

  /** {@code names} (up to a limit) of {@code total} added names {@code archive} already has. */
  public static NameConflictException exists(String archive, List<String> names, long total) {
    return new NameConflictException(
        Kind.EXISTS,
        names,
        archive
            + ": already has "
            + total
            + " of the added names ("
            + String.join(", ", names.stream().map(n -> "'" + n + "'").toList())
            + (total > names.size() ? ", ..." : "")
            + "); replace them with --replace (the replace option of jobs and Spark writes)");
  }

  /**
   * @param file the name that is a file
   * @param underIt a name that makes it a directory
   */
  public static NameConflictException clash(String archive, String file, String underIt) {
    return new NameConflictException(
        Kind.CLASH,
        List.of(file, underIt),
        archive
            + ": '"
            + file
            + "' and '"
            + underIt
            + "' cannot both be entries: a name cannot be a file and a directory at once");
  }

  public Kind kind() {
    return kind;
  }

  /** The conflicting names; for a clash, the file and then the name under it. */
  public List<String> names() {
    return names;
  }
}
