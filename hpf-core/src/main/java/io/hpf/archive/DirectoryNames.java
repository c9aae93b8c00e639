package io.hpf.archive;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.NameHash;
import io.hpf.internal.index.IndexRecord;
import io.hpf.internal.read.SegmentReader;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The verifier's check that no live name is also a directory of another ({@code d/x} beside {@code
 * d/x/y}: writers refuse such names, archives made before they did may hold them; FORMAT.md "Entry
 * names"), made as the live names come: each parent directory is looked up in the index, the newest
 * segment having it deciding. Names of a directory come together in a catalog, so only the
 * directories on the path of the name at hand are remembered. Not thread-safe.
 */
final class DirectoryNames {
  private final List<SegmentReader> newestFirst;
  private final BiConsumer<String, String> report;
  private final ArrayDeque<String> notEntries = new ArrayDeque<>(); // on the current name's path
  private final Set<String> reported = new HashSet<>();

  /**
   * @param report told each entry that is also a directory once, with a name under it
   */
  DirectoryNames(List<SegmentReader> newestFirst, BiConsumer<String, String> report) {
    this.newestFirst = newestFirst;
    this.report = report;
  }

  /** Checks the parent directories of a live name. */
  void check(String name) throws IOException {
    while (!notEntries.isEmpty() && !EntryNames.isUnder(name, notEntries.peekLast())) {
      notEntries.pollLast();
    }
    int from = notEntries.isEmpty() ? 0 : notEntries.peekLast().length() + 1;
    for (int slash = name.indexOf('/', from); slash >= 0; slash = name.indexOf('/', slash + 1)) {
      String parent = name.substring(0, slash);
      if (!isLiveEntry(parent)) {
        notEntries.addLast(parent);
      } else if (reported.add(parent)) {
        report.accept(parent, name);
      }
    }
  }

  private boolean isLiveEntry(String name) throws IOException {
    byte[] utf8 = EntryNames.utf8(name);
    IndexRecord record = newestRecord(newestFirst, utf8, NameHash.of(utf8));
    return record != null && !record.isTombstone();
  }

  /**
   * The record of a name in the first of {@code newestFirst} that has one (a tombstone too), or
   * null: what decides a name in an archive. A damaged bucket is passed over here; its segment's
   * own check reports it.
   */
  static IndexRecord newestRecord(List<SegmentReader> newestFirst, byte[] utf8, long hash)
      throws IOException {
    for (SegmentReader segment : newestFirst) {
      try {
        IndexRecord record = segment.find(utf8, hash);
        if (record != null) {
          return record;
        }
      } catch (CorruptArchiveException e) {
        // Reported by that segment's own check.
      }
    }
    return null;
  }
}
