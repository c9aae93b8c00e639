package io.hpf.pack;

import io.hpf.archive.Generation;
import java.util.List;

/**
 * What {@link Packer} did.
 *
 * @param manifest the committed manifest
 * @param files entries written
 * @param bytes their content bytes
 * @param skipped sources not packed, each "path: reason" (symlinks, unreadable with the flag,
 *     special files)
 */
public record PackResult(Generation manifest, long files, long bytes, List<String> skipped) {
  public PackResult {
    skipped = List.copyOf(skipped);
  }
}
