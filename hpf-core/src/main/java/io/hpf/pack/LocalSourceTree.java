package io.hpf.pack;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import io.hpf.archive.model.EntryMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A local directory tree to pack, walked with {@code java.nio}. Symbolic links are skipped and
 * listed unless followed; a link loop is an error; names that are not valid UTF-8 are errors.
 */
public final class LocalSourceTree implements SourceTree {
  private final Path root;
  private final Path excluded; // the archive being written, when it lies inside the tree; or null

  private LocalSourceTree(Path root, Path excluded) {
    this.root = root;
    this.excluded = excluded;
  }

  /**
   * @throws NoSuchFileException if {@code root} is not a directory
   */
  public static LocalSourceTree of(Path root) throws NoSuchFileException {
    return of(root, null);
  }

  /**
   * A tree that leaves out {@code archive}, the directory of the archive being written, should it
   * lie inside the tree (an archive never packs itself).
   *
   * @throws NoSuchFileException if {@code root} is not a directory
   */
  public static LocalSourceTree of(Path root, Path archive) throws NoSuchFileException {
    if (!Files.isDirectory(root)) {
      throw new NoSuchFileException(
          root.toString(),
          null,
          Files.exists(root) ? "not a directory" : "no such file or directory");
    }
    // A root given as a symbolic link (docs -> /srv/docs) is the directory it names, as for
    // cp -r and rsync; links inside the tree are skipped unless followed.
    Path walked = root;
    if (Files.isSymbolicLink(root)) {
      try {
        walked = root.toRealPath();
      } catch (java.io.IOException e) {
        throw new NoSuchFileException(
            root.toString(), null, "a symbolic link that cannot be followed");
      }
    }
    Path inside = null;
    if (archive != null) {
      Path base = realOrAbsolute(walked);
      Path target = realOrAbsolute(archive);
      inside =
          target.startsWith(base) && !target.equals(base)
              ? walked.resolve(base.relativize(target))
              : null;
    }
    return new LocalSourceTree(walked, inside);
  }

  /** The path with every link resolved where it exists (an archive not made yet: as written). */
  private static Path realOrAbsolute(Path path) {
    try {
      return path.toRealPath();
    } catch (java.io.IOException e) {
      return path.toAbsolutePath().normalize();
    }
  }

  @Override
  public String describe() {
    return root.toString();
  }

  /** A local file, read with one channel read into the packer's buffer. */
  record LocalFile(String name, Path path, long size, long mtimeMillis, int mode)
      implements SourceFile {
    @Override
    public String describe() {
      return path.toString();
    }

    @Override
    public InputStream open() throws IOException {
      return Files.newInputStream(path);
    }

    @Override
    public int readInto(byte[] buffer) throws IOException {
      return readFile(path, buffer, size);
    }
  }

  @Override
  public void walk(
      String prefix,
      Packer.Options options,
      List<String> skipped,
      Consumer<SourceFile> sink,
      BooleanSupplier stop)
      throws IOException {
    Findings to = new Findings(options, skipped, sink, stop);
    if (PosixTreeWalk.walk(root, excluded, prefix, to)) {
      return;
    }
    Set<FileVisitOption> visit =
        options.followSymlinks()
            ? EnumSet.of(FileVisitOption.FOLLOW_LINKS)
            : EnumSet.noneOf(FileVisitOption.class);
    Files.walkFileTree(root, visit, Integer.MAX_VALUE, new Walker(prefix, to));
  }

  /**
   * Where a walk's findings go: files to {@code sink}, what it leaves out (and why) to {@code
   * skipped}; it stops once {@code stop} says so.
   */
  record Findings(
      Packer.Options options,
      List<String> skipped,
      Consumer<SourceFile> sink,
      BooleanSupplier stop) {

    /** A name that could not be listed or looked at: an error, or skipped if the options say. */
    void unreadable(Path path, IOException e) throws IOException {
      if (!options.skipUnreadable()) {
        throw new IOException(path + ": cannot read; use --skip-unreadable to skip such files", e);
      }
      skipped.add(path + ": cannot read (" + Packer.whyUnreadable(e) + ")");
    }

    /** A file the options may let pass (its message listed as skipped); thrown otherwise. */
    void skipOrThrow(IOException e) throws IOException {
      if (!options.skipUnreadable()) {
        throw e;
      }
      skipped.add(e.getMessage());
    }
  }

  /** What the walk does at each file and directory: sinks regular files, lists what it skips. */
  private final class Walker extends SimpleFileVisitor<Path> {
    private final String prefix;
    private final Findings to;

    Walker(String prefix, Findings to) {
      this.prefix = prefix;
      this.to = to;
    }

    @Override
    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
      if (dir.equals(excluded)) {
        to.skipped().add(dir + ": the archive being written (not packed)");
        return FileVisitResult.SKIP_SUBTREE;
      }
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
      if (attrs.isSymbolicLink()) {
        to.skipped().add(file + ": symbolic link (use --follow-symlinks to follow)");
      } else if (!attrs.isRegularFile()) {
        to.skipped().add(file + ": not a regular file");
      } else {
        String name;
        try {
          name = prefix + entryName(root, file);
        } catch (IOException e) {
          to.skipOrThrow(e);
          return FileVisitResult.CONTINUE;
        }
        to.sink()
            .accept(
                new LocalFile(
                    name,
                    file,
                    attrs.size(),
                    attrs.lastModifiedTime().toMillis(),
                    modeOf(file, attrs, to.options().followSymlinks())));
      }
      return to.stop().getAsBoolean() ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
      if (e instanceof FileSystemLoopException) {
        throw new IOException(file + ": symbolic link loop", e);
      }
      to.unreadable(file, e);
      return FileVisitResult.CONTINUE;
    }
  }

  /** The entry name of a source file; a name that did not decode as UTF-8 is an error. */
  private static String entryName(Path root, Path file) throws IOException {
    StringBuilder name = new StringBuilder();
    for (Path component : root.relativize(file)) {
      if (name.length() > 0) {
        name.append('/');
      }
      name.append(component.toString());
    }
    String result = name.toString();
    if (result.indexOf('\uFFFD') >= 0) {
      throw notUtf8(file);
    }
    return result;
  }

  static IOException notUtf8(Path file) {
    return new IOException(
        file + ": file name is not valid UTF-8 (entry names are UTF-8); rename it");
  }

  /**
   * Reads a whole file into {@code buffer} and returns its length. The buffer has room for one byte
   * more than the size listed, so a file that grew since is noticed, not cut short.
   */
  static int readFile(Path path, byte[] buffer, long listedSize) throws IOException {
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(path)) {
      java.nio.ByteBuffer target = java.nio.ByteBuffer.wrap(buffer);
      // A regular file's read gives all it has up to the room given: one that stops at the size
      // listed, with room left, is a file of that size, and a second read to find its end (one
      // more system call per file, as tar makes none) is not needed.
      if (channel.read(target) == listedSize && target.hasRemaining()) {
        return target.position();
      }
      while (target.hasRemaining()) {
        if (channel.read(target) < 0) {
          return target.position();
        }
      }
      throw new IOException(
          path + ": file grew while being read (now over " + (buffer.length - 1) + " bytes)");
    }
  }

  /** The mode bits of a file (following links), as the walk records them. */
  public static int modeOf(Path file) throws IOException {
    return modeOf(file, Files.readAttributes(file, BasicFileAttributes.class), true);
  }

  /**
   * The file's mode bits as tar records them (permissions, set-user-id, set-group-id, sticky:
   * {@code st_mode & 07777}). Attributes that are basic ones cost one more stat; where the file
   * system has no Unix modes, 0644.
   */
  static int modeOf(Path file, BasicFileAttributes attrs, boolean followLinks) throws IOException {
    LinkOption[] links = followLinks ? new LinkOption[0] : new LinkOption[] {NOFOLLOW_LINKS};
    int permissions;
    if (attrs instanceof java.nio.file.attribute.PosixFileAttributes posix) {
      permissions = modeOf(posix.permissions());
    } else {
      try {
        permissions = modeOf(Files.getPosixFilePermissions(file, links));
      } catch (UnsupportedOperationException noPosixView) {
        return EntryMetadata.DEFAULT_MODE;
      }
    }
    if ((permissions & 0111) == 0) {
      return permissions; // set-user-id and set-group-id matter on executables only
    }
    try { // "unix:mode" builds a map per call: asked only where those bits may be set
      return (Integer) Files.getAttribute(file, "unix:mode", links) & 07777;
    } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
      return permissions;
    }
  }

  private static int modeOf(Set<java.nio.file.attribute.PosixFilePermission> permissions) {
    int mode = 0;
    for (java.nio.file.attribute.PosixFilePermission p : permissions) {
      mode |= 1 << (8 - p.ordinal()); // OWNER_READ is ordinal 0, i.e. bit 8 (0400)
    }
    return mode;
  }
}
