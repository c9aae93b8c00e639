package io.hpf.internal.manifest;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;

/**
 * Commits and finds manifests (FORMAT.md "Commit protocol"): a commit writes the whole manifest
 * under a temporary name, syncs it, and renames it to its generation's name; the newest generation
 * present is the archive's current state.
 */
public final class ManifestStore {
  private ManifestStore() {}

  public static void commit(Storage storage, Manifest manifest) throws IOException {
    String name = FileNames.manifestFileName(manifest.generation());
    String temp = name + FileNames.TEMP_SUFFIX;
    byte[] bytes = ManifestCodec.encode(manifest);
    if (bytes.length > FormatConstants.MAX_MANIFEST_BYTES) {
      throw new IOException(
          storage.describe(name)
              + ": the manifest would be "
              + bytes.length
              + " bytes, over the 16 MiB a manifest may have (too many parts, segments or"
              + " buckets: compact the archive, or give it a larger bucket capacity)");
    }
    storage.delete(temp); // a leftover of a writer that died before renaming
    try (AppendableFile file = storage.create(temp, FileUse.ONCE)) {
      file.write(bytes);
      file.sync();
    }
    storage.rename(temp, name);
  }

  /** The newest committed generation in a listing, or -1. */
  public static long newestGeneration(List<StoredFile> files) {
    long newest = -1;
    for (StoredFile f : files) {
      newest = Math.max(newest, FileNames.manifestGeneration(f.name()));
    }
    return newest;
  }

  /** Reads and checks the manifest of a generation. */
  public static Manifest read(Storage storage, long generation) throws IOException {
    try (ReadableFile file =
        storage.openRead(FileNames.manifestFileName(generation), FileUse.INDEX)) {
      return read(storage, generation, file);
    }
  }

  /** Reads and checks the manifest of a generation from its open file. */
  public static Manifest read(Storage storage, long generation, ReadableFile file)
      throws IOException {
    String name = FileNames.manifestFileName(generation);
    long length = file.length();
    if (length > FormatConstants.MAX_MANIFEST_BYTES) {
      throw new CorruptArchiveException(
          storage.describe(name),
          0,
          "manifest of "
              + length
              + " bytes is over the 16 MiB (16777216 bytes) a manifest may have");
    }
    Manifest manifest =
        ManifestCodec.decode(storage.describe(name), file.readFully(0, (int) length));
    if (manifest.generation() != generation) {
      throw new CorruptArchiveException(
          storage.describe(name),
          16,
          "manifest says generation " + manifest.generation() + ", file name says " + generation);
    }
    return manifest;
  }

  /** The newest committed generation in a listing; an error names the directory if none. */
  public static long requireNewest(Storage storage, List<StoredFile> files)
      throws FileNotFoundException {
    long generation = newestGeneration(files);
    if (generation < 0) {
      throw new FileNotFoundException(storage + ": not an hpf archive (no manifest-*.hpfm file)");
    }
    return generation;
  }

  /** Reads the newest manifest; an error names the directory if there is none. */
  public static Manifest readNewest(Storage storage, List<StoredFile> files) throws IOException {
    return read(storage, requireNewest(storage, files));
  }
}
