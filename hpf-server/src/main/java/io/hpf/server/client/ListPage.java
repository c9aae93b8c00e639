package io.hpf.server.client;

import java.util.List;

/**
 * One page of a listing.
 *
 * @param entries the entries of the page, in name order
 * @param prefixes the common prefixes rolled up by the '/' delimiter, in order
 * @param next the cursor for the next page (pass as {@code after}), or null on the last page
 */
public record ListPage(List<Listed> entries, List<String> prefixes, String next) {
  /** An entry of a listing. */
  public record Listed(String name, long length, long mtimeMillis) {}
}
