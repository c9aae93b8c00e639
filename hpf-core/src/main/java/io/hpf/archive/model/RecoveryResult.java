package io.hpf.archive.model;

import java.util.List;

/**
 * What opening a writer found left by a writer that died before committing.
 *
 * @param entriesRecovered complete, checksummed entries committed now
 * @param entriesDropped entries not recovered: a name the archive already has (committed entries
 *     never change), or a name twice
 * @param bytesDropped bytes of incomplete or damaged tails discarded
 * @param filesRemoved leftover files deleted (uncommitted indexes, temporary manifests)
 * @param damagedParts committed part files missing or cut short: what they lost no recovery can
 *     bring back (a note names each)
 * @param notes what was done, one line each, naming files and offsets
 * @param lockTakenFrom the holder line of a writer of this host that died holding the lock, which
 *     this writer took over without being asked (local disk), or null
 */
public record RecoveryResult(
    long entriesRecovered,
    long entriesDropped,
    long bytesDropped,
    int filesRemoved,
    int damagedParts,
    List<String> notes,
    String lockTakenFrom) {
  public RecoveryResult {
    notes = List.copyOf(notes);
  }

  /** The same, telling also that the lock of a writer that died was taken over. */
  public RecoveryResult withLockTakenFrom(String holder) {
    return new RecoveryResult(
        entriesRecovered, entriesDropped, bytesDropped, filesRemoved, damagedParts, notes, holder);
  }

  public boolean foundAnything() {
    return entriesRecovered + entriesDropped + bytesDropped + filesRemoved > 0;
  }
}
