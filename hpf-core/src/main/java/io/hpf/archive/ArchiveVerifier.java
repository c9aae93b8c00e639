package io.hpf.archive;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.ProgressListener;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.ArchiveFiles;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.internal.read.SegmentReader;
import io.hpf.store.Storage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks an archive completely: reads every byte of every file the manifest names, checks every
 * checksum (file footers, bucket meta and records, catalog blocks, entry headers and content), and
 * cross-checks the pieces: every catalog row is found through the index at the same place, every
 * record is a row, and the entries of each part file tile it exactly up to its committed length. It
 * goes on after a problem, so the report lists every damaged file. The same check serves tests,
 * {@code hpf verify} and benchmarks.
 */
public final class ArchiveVerifier {
  private final Storage storage;
  private final VerifyFindings findings;
  private final SegmentCheck segmentCheck;
  private final PartCheck partCheck;

  private ArchiveVerifier(Storage storage, ProgressListener progress) {
    this.storage = storage;
    this.findings = new VerifyFindings(storage, progress);
    this.segmentCheck = new SegmentCheck(storage, findings);
    this.partCheck = new PartCheck(storage, findings);
  }

  public static VerifyReport verify(Storage storage, ProgressListener progress) throws IOException {
    ArchiveVerifier v = new ArchiveVerifier(storage, progress);
    v.run();
    return v.findings.report();
  }

  private void run() throws IOException {
    List<StoredFile> listing = storage.list();
    Manifest manifest;
    try {
      manifest = ManifestStore.readNewest(storage, listing);
    } catch (CorruptArchiveException e) {
      findings.problem(e);
      return;
    }
    for (String p : ArchiveFiles.problems(storage, manifest, listing)) {
      findings.problemAsSaid(p);
    }
    if (!findings.none()) {
      return; // later checks would only repeat "missing" and "truncated" in other words
    }
    for (ArchiveFiles.Expected e : ArchiveFiles.expected(manifest)) {
      if (!e.mayBeLonger()) {
        segmentCheck.checkWholeFile(
            e.name(), e.length(), SegmentCheck.sectionsOf(manifest, e.name()));
      }
    }
    try (ArchiveReader reader = new ArchiveReader(storage, manifest);
        PlacedRows placed = new PlacedRows()) {
      List<SegmentReader> segments = reader.segmentsNewestFirst();
      long total = 0;
      DirectoryNames directories =
          new DirectoryNames(
              segments,
              (parent, under) ->
                  findings.problem(
                      FileNames.manifestFileName(manifest.generation()),
                      -1,
                      "entry '" + parent + "' is also a directory (of '" + under + "')"));
      for (int s = 0; s < segments.size(); s++) {
        total +=
            segmentCheck.checkSegment(segments.get(s), segments.subList(0, s), placed, directories);
      }
      placed.sort();
      Set<Integer> listed = new HashSet<>();
      for (Generation.Part part : manifest.parts()) {
        listed.add(part.partId());
      }
      // Rows come in part order; the manifest's parts are walked as their rows come.
      for (long id = placed.nextPart(); id >= 0; id = placed.nextPart()) {
        int partId = (int) id;
        if (listed.remove(partId)) {
          partCheck.checkPart(reader, partOf(manifest, partId), placed, total);
        } else {
          EntryInfo row = placed.peek(partId).info();
          findings.problem(
              FileNames.partFileName(partId),
              row.offset(),
              "catalog row '" + row.name() + "' names part " + partId + ", which is not listed");
          placed.skipBefore(partId, Long.MAX_VALUE, offset -> {});
        }
      }
      for (Generation.Part part : manifest.parts()) {
        if (listed.contains(part.partId())) {
          partCheck.checkPart(reader, part, placed, total); // no row names an entry in it
        }
      }
    }
  }

  private static Generation.Part partOf(Manifest manifest, int partId) {
    return manifest.parts().stream().filter(p -> p.partId() == partId).findFirst().orElseThrow();
  }
}
