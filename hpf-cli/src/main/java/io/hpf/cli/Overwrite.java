package io.hpf.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * {@code create --overwrite} on local disk: the new archive is packed in a directory beside the
 * target and renamed over it once complete, so the path holds the old archive or the new one, never
 * a part of either (readers that run keep their files; they see the new archive as one put in the
 * old one's place). Only an archive is replaced, and not while a writer holds its lock.
 */
record Overwrite(Path target, Path staging) {
  static Overwrite of(String archive, Path target) throws IOException {
    if (target == null) {
      throw new IllegalArgumentException(
          archive
              + ": --overwrite replaces archives on local disk; elsewhere remove the old archive"
              + " first");
    }
    if (Files.isDirectory(target)) {
      try (Stream<Path> files = Files.list(target)) {
        boolean archiveFiles = false;
        boolean otherFiles = false;
        for (Path f : files.toList()) {
          String name = f.getFileName().toString();
          if (name.equals("hpf.lock")) {
            throw new FileAlreadyExistsException(
                target + ": a writer holds the archive's lock (hpf.lock); not replaced");
          }
          archiveFiles |= isManifest(name);
          otherFiles |= !isManifest(name) && !name.startsWith("part-") && !name.startsWith("seg-");
        }
        if (!archiveFiles && otherFiles) {
          throw new FileAlreadyExistsException(
              target + ": not an archive; --overwrite replaces only an archive");
        }
      }
    } else if (Files.exists(target)) {
      throw new FileAlreadyExistsException(target + ": a file, not an archive");
    }
    Path parent = target.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path staging =
        parent.resolve("." + target.getFileName() + ".new-" + ProcessHandle.current().pid());
    deleteTree(staging); // a run killed before its rename
    return new Overwrite(target, staging);
  }

  /** Whether {@code dir} holds an archive (a manifest). */
  static boolean isArchive(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> isManifest(f.getFileName().toString()));
    }
  }

  private static boolean isManifest(String name) {
    return name.startsWith("manifest-") && name.endsWith(".hpfm");
  }

  /** The new archive, complete, takes the target's place; the old one is deleted. */
  void commit() throws IOException {
    Path old =
        staging.resolveSibling(
            "." + target.getFileName() + ".old-" + ProcessHandle.current().pid());
    boolean hadOld = Files.exists(target);
    if (hadOld) {
      Files.move(target, old);
    }
    Files.move(staging, target);
    if (hadOld) {
      deleteTree(old);
    }
  }

  /** Packing failed: the target is left as it was. */
  void abandon() {
    try {
      deleteTree(staging);
    } catch (IOException e) {
      // the packing's own error is the one to report
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
