package io.hpf.select;

import io.hpf.archive.model.EntryInfo;

/**
 * Decides from an entry's catalog row (never its content) whether a job reads it. A user class
 * named by {@code hpf.select.class} implements this with a public no-argument constructor (and
 * {@code org.apache.hadoop.conf.Configurable} to see the job's configuration).
 */
@FunctionalInterface
public interface Selector {
  boolean select(EntryInfo entry);

  /**
   * The selector a {@code --select} expression describes (grammar in {@code SelectorParser}).
   *
   * @throws SelectorSyntaxException pointing at the bad token
   */
  static Selector parse(String expression) {
    return SelectorParser.parse(expression);
  }

  /** Selects every entry. */
  static Selector all() {
    return entry -> true;
  }
}
