package io.hpf.bench;

import io.hpf.pack.LocalSourceTree;
import io.hpf.pack.Packer;
import io.hpf.pack.SourceTree.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** The local trees benchmarks pack and read: their files as the packer sees them, and clean-up. */
public final class LocalTrees {
  private LocalTrees() {}

  /** The files {@code hpf create} would pack from {@code tree}, sorted by name. */
  public static List<SourceFile> files(Path tree) throws IOException {
    List<SourceFile> files = new ArrayList<>();
    LocalSourceTree.of(tree)
        .walk("", Packer.Options.defaults(), new ArrayList<>(), files::add, () -> false);
    files.sort(Comparator.comparing(SourceFile::name));
    return files;
  }

  /** Deletes a directory and everything under it; a missing one is not an error. */
  public static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
