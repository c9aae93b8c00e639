package io.hpf.select;

/** A {@code --select} expression that does not parse: the message points at the bad token. */
public final class SelectorSyntaxException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int position;

  SelectorSyntaxException(String expression, int position, String problem) {
    super(
        "invalid selector at position "
            + (position + 1)
            + ": "
            + problem
            + "\n  "
            + expression
            + "\n  "
            + " ".repeat(Math.max(0, position))
            + "^");
    this.position = position;
  }

  /** Where the bad token starts (0-based). */
  public int position() {
    return position;
  }
}
