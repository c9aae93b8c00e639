package io.hpf.internal.format;

/**
 * The last few groups an {@link EntryReader} decoded, newest first, so that reading neighbours in a
 * group (a listing's next entries, a batch) costs no second decompression. Thread-safe.
 */
final class RecentGroups {
  private static final int SIZE = 4;

  private final EntryGroup[] groups = new EntryGroup[SIZE];

  /** The decoded group at {@code offset} of {@code entryLength} bytes, or null if not recent. */
  synchronized EntryGroup find(long offset, long entryLength) {
    for (EntryGroup g : groups) {
      if (g != null && g.offset() == offset && g.length() == entryLength) {
        return g;
      }
    }
    return null;
  }

  /** Keeps {@code group} as the newest, dropping the oldest. */
  synchronized void add(EntryGroup group) {
    System.arraycopy(groups, 0, groups, 1, SIZE - 1);
    groups[0] = group;
  }
}
