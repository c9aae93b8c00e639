package io.hpf.mount;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.GroupCommitWriter;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.StorageLocator;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code hpf mount --writable}: one archive, made if missing, opened for group commits (taking its
 * lock, so a second writer is refused while the mount lives), served until unmounted, and what was
 * written committed before the process ends.
 */
final class WritableMount {
  private WritableMount() {}

  /**
   * Groups of up to 100 ms: closed files wait {@link ChangeQueue#SETTLE_MILLIS} anyway, and a
   * program writing files one by one (cp, tar) then pays a commit per thousand files, not per few;
   * an fsync commits at once.
   */
  static final GroupCommitWriter.Settings COMMITS =
      new GroupCommitWriter.Settings(100, 10_000, 64L << 20);

  static void serve(
      String location,
      StorageLocator locator,
      Path dir,
      Path spillAsked,
      MemoryBudget budget,
      int uid,
      int gid,
      MountLog log,
      List<String> fuseOptions)
      throws IOException {
    Storage storage = locator.createArchive(location);
    if (ArchiveFormat.newestGeneration(storage.list()) < 0) {
      // No commit yet: made here, unless a writer holds it or it is something else (refused, said).
      try (ArchiveWriter w = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
        w.commit(); // an empty archive, so that readers find one
      }
      storage = locator.openArchive(location);
    }
    Path spill =
        spillAsked != null
            ? spillAsked.toAbsolutePath()
            : Path.of(
                System.getProperty("java.io.tmpdir"), "hpf-mount-" + ProcessHandle.current().pid());
    GroupCommitWriter writer =
        GroupCommitWriter.open(storage, WriterOptions.builder().build(), COMMITS);
    try {
      WritableArchiveFs fs = new WritableArchiveFs(location, writer, log, budget, spill, uid, gid);
      new Serving(location, fs, dir, log).run(fuseOptions);
    } finally {
      writer.close();
      if (spillAsked == null) {
        deleteTree(spill);
      }
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // left in java.io.tmpdir: nothing reads it
    }
  }
}
