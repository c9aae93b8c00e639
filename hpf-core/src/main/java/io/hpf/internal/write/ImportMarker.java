package io.hpf.internal.write;

import io.hpf.internal.format.FileNames;
import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code hpf.import} (FORMAT.md "Recovery"): the part files an import is moving in, written before
 * the first move and deleted once the manifest naming them is in place. Without it, a writer that
 * found parts moved in by an import that died before its commit would recover them as entries, and
 * a failed job's output would become visible; with it, they are deleted.
 */
public final class ImportMarker {
  public static final String FILE_NAME = "hpf.import";

  /** A marker lists part names only: 1 MiB is tens of thousands of them. */
  static final int MAX_BYTES = 1 << 20;

  private ImportMarker() {}

  /** Records the part files about to be moved in, durably, before any moves. */
  public static void write(Storage storage, List<String> partNames) throws IOException {
    byte[] text = (String.join("\n", partNames) + "\n").getBytes(StandardCharsets.UTF_8);
    try (AppendableFile file = storage.create(FILE_NAME, FileUse.ONCE)) {
      file.write(text);
      file.sync();
    }
  }

  /** The import committed: its parts are named by the manifest. */
  public static void clear(Storage storage) throws IOException {
    storage.delete(FILE_NAME);
  }

  /**
   * Deletes the parts a dead import moved in that no manifest names ({@code maxCommittedPartId} and
   * below are committed), then the marker; returns {@code listing} without them.
   */
  public static List<StoredFile> abandon(
      Storage storage, List<StoredFile> listing, int maxCommittedPartId) throws IOException {
    StoredFile marker =
        listing.stream().filter(f -> f.name().equals(FILE_NAME)).findFirst().orElse(null);
    if (marker == null) {
      return listing;
    }
    if (marker.lengthBytes() > MAX_BYTES) {
      throw new io.hpf.archive.model.CorruptArchiveException(
          storage.describe(FILE_NAME),
          0,
          marker.lengthBytes() + " bytes, more than an import lists");
    }
    Set<String> abandoned = new HashSet<>();
    try (ReadableFile file = storage.openRead(FILE_NAME, FileUse.ONCE)) {
      String text =
          new String(file.readFully(0, (int) marker.lengthBytes()), StandardCharsets.UTF_8);
      for (String name : text.split("\n")) {
        if (FileNames.kindOf(name) == FileNames.Kind.PART
            && FileNames.partIdOf(name) > maxCommittedPartId) {
          abandoned.add(name);
        }
      }
    }
    List<StoredFile> kept = new ArrayList<>();
    for (StoredFile f : listing) {
      if (abandoned.contains(f.name())) {
        storage.delete(f.name());
      } else if (!f.name().equals(FILE_NAME)) {
        kept.add(f);
      }
    }
    storage.delete(FILE_NAME);
    return kept;
  }
}
