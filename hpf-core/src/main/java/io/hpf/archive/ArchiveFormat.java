package io.hpf.archive;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.NameHash;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.store.Storage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.List;

/**
 * What engines and tools outside hpf-core may know of the format (FORMAT.md) without reading it
 * themselves: the names of an archive's files, the version written, the rules for entry names and
 * the format's hash. Everything else of the format is {@code io.hpf.internal.format}'s.
 */
public final class ArchiveFormat {
  /** The format version writers write (FORMAT.md "Versions"). */
  public static final int VERSION_CURRENT = FormatConstants.VERSION_CURRENT;

  /** The longest entry name, in UTF-8 bytes. */
  public static final int MAX_NAME_BYTES = FormatConstants.MAX_NAME_BYTES;

  private ArchiveFormat() {}

  /** The file name of part {@code partId} inside the archive's directory. */
  public static String partFileName(int partId) {
    return FileNames.partFileName(partId);
  }

  /** The generation of a manifest file's name, or -1 if the name is not a committed manifest's. */
  public static long manifestGeneration(String fileName) {
    return FileNames.manifestGeneration(fileName);
  }

  /** The newest committed generation among an archive's files, or -1 when none is committed. */
  public static long newestGeneration(List<StoredFile> files) {
    return ManifestStore.newestGeneration(files);
  }

  /**
   * What the writers of the archive in {@code storage} store new entries with ({@link
   * ArchiveSettings#recordedIn} its newest manifest), or null when it has no committed manifest
   * yet.
   */
  public static ArchiveSettings settingsOf(Storage storage) throws IOException {
    List<StoredFile> files = storage.list();
    return ManifestStore.newestGeneration(files) < 0
        ? null
        : ArchiveSettings.recordedIn(ManifestStore.readNewest(storage, files));
  }

  /**
   * Whether a file of the archive's directory is part of its index (manifest, segment, bucket,
   * catalog or dictionary file): small, read on every open, worth caching; part files are not.
   */
  public static boolean isIndexFile(String fileName) {
    return switch (FileNames.kindOf(fileName)) {
      case SEGMENT, BUCKET, CATALOG, DICTIONARY, MANIFEST -> true;
      default -> false;
    };
  }

  /** Whether hpf names files so in an archive's directory (part, segment, manifest, ...). */
  public static boolean isArchiveFile(String fileName) {
    return FileNames.isArchiveFile(fileName);
  }

  /** Why {@code name} cannot be an entry's name as it stands, or null when it is in normal form. */
  public static String whyNotNormal(String name) {
    return EntryNames.whyNotNormal(name);
  }

  /** An entry name for a message: the bytes of it that are not UTF-8 shown as {@code \xNN}. */
  public static String shown(String name) {
    return EntryNames.shown(name);
  }

  /** The format's 64-bit hash (xxHash64, seed 0) of {@code bytes}: stable across versions. */
  public static long hash64(byte[] bytes) {
    return NameHash.xxh64(bytes, 0);
  }
}
