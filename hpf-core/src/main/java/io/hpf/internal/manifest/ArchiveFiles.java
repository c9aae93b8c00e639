package io.hpf.internal.manifest;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The files a manifest names and the lengths it expects of them. */
public final class ArchiveFiles {
  private ArchiveFiles() {}

  /**
   * A file of the archive: its name, the length the manifest implies, and whether the file may be
   * longer (a part file may have an uncommitted tail after its committed length).
   */
  public record Expected(String name, long length, boolean mayBeLonger) {}

  public static List<Expected> expected(Manifest manifest) {
    List<Expected> files = new ArrayList<>();
    for (Manifest.DictionaryRef d : manifest.dictionaries()) {
      if (!d.inSegmentFile()) { // else inside a segment file listed below
        files.add(new Expected(FileNames.dictionaryFileName(d.dictionaryId()), d.length(), false));
      }
    }
    for (Generation.Part p : manifest.parts()) {
      files.add(new Expected(FileNames.partFileName(p.partId()), p.committedLength(), true));
    }
    for (Manifest.SegmentRef s : manifest.segments()) {
      if (s.inSegmentFile()) {
        files.add(new Expected(FileNames.segmentFileName(s.segmentId()), s.fileLength(), false));
        continue;
      }
      files.add(new Expected(FileNames.catalogFileName(s.segmentId()), s.catalogLength(), false));
      for (BucketDescriptor b : s.directory().buckets()) {
        files.add(
            new Expected(
                FileNames.bucketFileName(s.segmentId(), b.bucketNo()), b.fileLength(), false));
      }
    }
    return files;
  }

  /**
   * The length of a file as a reader sees it when opened: on HDFS a file whose writer died before
   * closing it is listed with its complete blocks only, though its flushed bytes can be read.
   */
  private static long visibleLength(Storage storage, Expected e) throws java.io.IOException {
    try (io.hpf.store.ReadableFile file = storage.openRead(e.name(), FileUse.CONTENT)) {
      return file.length();
    }
  }

  /**
   * The length of a file as storage has it now, or null if it is not there: a listing taken while a
   * writer commits can leave out a file made meanwhile, or list one half written, yet hold the
   * manifest committed after it (readdir's order is not the order files were made in). Seen as a
   * reader opening beside a group-commit writer failing with a segment "missing" that was there, or
   * "file is N bytes" shorter than it was.
   */
  private static Long lengthIfPresent(Storage storage, Expected e) throws java.io.IOException {
    try {
      return visibleLength(storage, e);
    } catch (java.io.FileNotFoundException missing) {
      return null;
    }
  }

  /**
   * A file the manifest names, as listed: missing ({@code length} null) or of another length than
   * the manifest implies.
   */
  public record Shortfall(Expected file, Long length) {
    /** What is wrong with the file, in words. */
    public String problem() {
      return length == null
          ? "missing (the manifest lists it)"
          : "file is "
              + length
              + " bytes, manifest expects "
              + (file.mayBeLonger() ? "at least " : "")
              + file.length();
    }

    /** "path: problem", as verify and the errors of an open say it. */
    public String describe(Storage storage) {
      return storage.describe(file.name()) + ": " + problem();
    }
  }

  /**
   * Throws naming the first index file (segment, catalog, bucket, dictionary) that is missing or
   * has the wrong length. A part file missing or cut short is a damaged part, not a damaged
   * archive: listings and the entries of the other parts still read, and a read of an entry it lost
   * says so (so that {@code extract} salvages the rest; {@code verify} reports it).
   */
  public static void checkPresent(Storage storage, Manifest manifest, List<StoredFile> listing)
      throws java.io.IOException {
    List<Expected> indexFiles = expected(manifest).stream().filter(e -> !e.mayBeLonger()).toList();
    List<Shortfall> found = shortfalls(storage, indexFiles, listing);
    if (!found.isEmpty()) {
      Shortfall first = found.get(0);
      if (first.length() == null) {
        throw new FileNotFoundException(first.describe(storage));
      }
      throw new CorruptArchiveException(storage.describe(first.file().name()), 0, first.problem());
    }
  }

  /** The part files that are missing or shorter than their committed lengths: damaged parts. */
  public static List<Shortfall> damagedParts(
      Storage storage, Manifest manifest, List<StoredFile> listing) throws java.io.IOException {
    List<Expected> parts = expected(manifest).stream().filter(Expected::mayBeLonger).toList();
    return shortfalls(storage, parts, listing);
  }

  /** Every missing or wrongly sized file, as "path: problem". */
  public static List<String> problems(Storage storage, Manifest manifest, List<StoredFile> listing)
      throws java.io.IOException {
    return shortfalls(storage, expected(manifest), listing).stream()
        .map(f -> f.describe(storage))
        .toList();
  }

  /** Whether a file of {@code length} bytes is what the manifest implies. */
  private static boolean fits(Expected e, long length) {
    return e.mayBeLonger() ? length >= e.length() : length == e.length();
  }

  private static List<Shortfall> shortfalls(
      Storage storage, List<Expected> files, List<StoredFile> listing) throws java.io.IOException {
    Map<String, Long> lengths = new HashMap<>();
    for (StoredFile f : listing) {
      lengths.put(f.name(), f.lengthBytes());
    }
    List<Shortfall> found = new ArrayList<>();
    for (Expected e : files) {
      Long actual = lengths.get(e.name());
      if (actual == null || !fits(e, actual)) {
        // Asked of the file itself: a listing is not a snapshot (one taken while a writer commits
        // holds files half written, or not yet made), and HDFS lists a file a writer that died
        // still holds open with its complete blocks only.
        actual = lengthIfPresent(storage, e);
      }
      if (actual == null) {
        found.add(new Shortfall(e, null));
      } else if (!fits(e, actual)) {
        found.add(new Shortfall(e, actual));
      }
    }
    return found;
  }
}
