package io.hpf.archive;

/**
 * A name was added that would be both a file and a directory: an entry {@code d/x} and another
 * {@code d/x/y}. Such an archive cannot be extracted or shown as a tree, so writers refuse the
 * second name before anything is committed.
 */
public final class NameClashException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String file;
  private final String underIt;

  /**
   * @param file the name that is a file
   * @param underIt a name that makes it a directory
   */
  public NameClashException(String archive, String file, String underIt) {
    super(
        archive
            + ": '"
            + file
            + "' and '"
            + underIt
            + "' cannot both be entries: a name cannot be a file and a directory at once");
    this.file = file;
    this.underIt = underIt;
  }

  public String file() {
    return file;
  }

  public String underIt() {
    return underIt;
  }
}
