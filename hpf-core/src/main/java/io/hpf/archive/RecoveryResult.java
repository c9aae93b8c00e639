package io.hpf.archive;

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
 */
public record RecoveryResult(
    long entriesRecovered,
    long entriesDropped,
    long bytesDropped,
    int filesRemoved,
    int damagedParts,
    List<String> notes) {
  public RecoveryResult {
    notes = List.copyOf(notes);
  }

  public boolean foundAnything() {
    return entriesRecovered + entriesDropped + bytesDropped + filesRemoved > 0;
  }
}
