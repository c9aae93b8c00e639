package io.hpf.internal.manifest;

import io.hpf.archive.CorruptArchiveException;
import io.hpf.archive.Generation;
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
   * Throws naming the first index file (segment, catalog, bucket, dictionary) that is missing or
   * has the wrong length. A part file missing or cut short is a damaged part, not a damaged
   * archive: listings and the entries of the other parts still read, and a read of an entry it lost
   * says so (so that {@code extract} salvages the rest; {@code verify} reports it).
   */
  public static void checkPresent(Storage storage, Manifest manifest, List<StoredFile> listing)
      throws java.io.IOException {
    List<String> problems = problems(storage, indexOnly(manifest), listing);
    if (!problems.isEmpty()) {
      String first = problems.get(0);
      if (first.contains("missing")) {
        throw new FileNotFoundException(first);
      }
      throw new CorruptArchiveException(
          first.substring(0, first.indexOf(": ")), 0, first.substring(first.indexOf(": ") + 2));
    }
  }

  /** {@code manifest} without its parts: what must be whole for the archive to be read at all. */
  private static Manifest indexOnly(Manifest m) {
    return new Manifest(
        m.generation(),
        m.commitMillis(),
        m.operation(),
        m.bucketCapacity(),
        m.writerSettings(),
        m.liveEntries(),
        m.liveEntryBytes(),
        m.dictionaries(),
        List.of(),
        m.segments(),
        m.history(),
        m.idMarks());
  }

  /** Every missing or wrongly sized file, as "path: problem". */
  public static List<String> problems(Storage storage, Manifest manifest, List<StoredFile> listing)
      throws java.io.IOException {
    Map<String, Long> lengths = new HashMap<>();
    for (StoredFile f : listing) {
      lengths.put(f.name(), f.lengthBytes());
    }
    List<String> problems = new ArrayList<>();
    for (Expected e : expected(manifest)) {
      Long actual = lengths.get(e.name());
      String path = storage.describe(e.name());
      if (actual == null) {
        problems.add(path + ": missing (the manifest lists it)");
      } else if (e.mayBeLonger()
          && actual < e.length()
          && visibleLength(storage, e) >= e.length()) {
        continue; // a part a writer that died still holds open: HDFS lists its complete blocks only
      } else if (actual < e.length() || (!e.mayBeLonger() && actual != e.length())) {
        problems.add(
            path
                + ": file is "
                + actual
                + " bytes, manifest expects "
                + (e.mayBeLonger() ? "at least " : "")
                + e.length());
      }
    }
    return problems;
  }
}
