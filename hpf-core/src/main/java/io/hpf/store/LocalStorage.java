package io.hpf.store;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Storage} on local disk with {@code java.nio}. Not Hadoop's LocalFileSystem: without native
 * libhadoop that starts a process per created file to set permissions, and it cannot append.
 * Thread-safe.
 */
public final class LocalStorage implements Storage {
  private final Path directory;
  private final boolean mapReads;

  private LocalStorage(Path directory, boolean mapReads) {
    this.directory = directory;
    this.mapReads = mapReads;
  }

  /**
   * Opens an existing archive directory. Files are read through memory mappings (no system call per
   * read once pages are cached), as Lucene's MMapDirectory does.
   */
  public static LocalStorage open(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      throw new FileNotFoundException(directory + ": no such archive directory");
    }
    return new LocalStorage(directory, true);
  }

  /**
   * Creates the directory (and its parents) if needed and opens it. It may already exist; the
   * archive layer decides whether existing content is acceptable.
   */
  public static LocalStorage createDirectories(Path directory) throws IOException {
    Files.createDirectories(directory);
    return new LocalStorage(directory, true);
  }

  /** The same directory, read with one positional read system call per read instead. */
  public LocalStorage withPositionalReads() {
    return new LocalStorage(directory, false);
  }

  public Path directory() {
    return directory;
  }

  private Path resolve(String name) {
    if (name.isEmpty() || name.indexOf('/') >= 0 || name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException("not a plain file name: '" + name + "'");
    }
    return directory.resolve(name);
  }

  @Override
  public ReadableFile openRead(String name, FileUse use) throws IOException {
    Path path = resolve(name);
    try {
      FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
      // A file read once costs less with one read than with a mapping made and unmade; one read
      // often is mapped once it has been read a few times.
      return mapReads && use != FileUse.ONCE
          ? new MappedReadableFile(path, channel)
          : new LocalReadableFile(path, channel);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(path + ": no such file");
    }
  }

  @Override
  public AppendableFile create(String name, FileUse use) throws IOException {
    Path path = resolve(name);
    try {
      return new LocalAppendableFile(
          path, FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    } catch (FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(path + ": already exists");
    }
  }

  @Override
  public void rename(String from, String to) throws IOException {
    Path target = resolve(to);
    if (Files.exists(target)) {
      throw new FileAlreadyExistsException(target + ": already exists");
    }
    Files.move(resolve(from), target, StandardCopyOption.ATOMIC_MOVE);
    syncDirectory();
  }

  @Override
  public void moveIn(String subdirectory, String name, String to) throws IOException {
    Path source = directory.resolve(Storage.checkRelative(subdirectory)).resolve(name);
    resolve(name); // a plain name
    Path target = resolve(to);
    if (Files.exists(target)) {
      throw new FileAlreadyExistsException(target + ": already exists");
    }
    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
    syncDirectory();
  }

  /** Makes the rename itself durable: on Linux a directory entry is data of the directory. */
  private void syncDirectory() {
    try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException e) {
      // Some file systems cannot open a directory for reading; the rename is still atomic.
    }
  }

  @Override
  public List<StoredFile> list() throws IOException {
    List<StoredFile> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path path : stream) {
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(path, BasicFileAttributes.class); // one stat a file
        } catch (NoSuchFileException e) {
          continue; // deleted since it was listed (a cleaner's work)
        }
        if (attributes.isRegularFile()) {
          files.add(
              new StoredFile(
                  path.getFileName().toString(), attributes.size(), version(attributes)));
        }
      }
    }
    return files;
  }

  @Override
  public boolean exists(String name) {
    // java.io.File asks without an exception for a missing file: a third of the cost.
    return resolve(name).toFile().exists();
  }

  @Override
  public Object version(String name) throws IOException {
    try {
      return version(Files.readAttributes(resolve(name), BasicFileAttributes.class));
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * The inode with the modification time and length: a file system may give a deleted file's inode
   * to a new file (never while the old one is open, which is why a reader keeps a file open whose
   * version it relies on).
   */
  private static Object version(BasicFileAttributes a) {
    return java.util.Arrays.asList(a.fileKey(), a.lastModifiedTime(), a.size());
  }

  /** The same inode: a file changed in place keeps it, one put in its place has another. */
  @Override
  public boolean sameFile(Object version, Object other) {
    return version instanceof List<?> a
        && other instanceof List<?> b
        && java.util.Objects.equals(a.get(0), b.get(0));
  }

  @Override
  public boolean statCheaperThanList() {
    return true;
  }

  @Override
  public String sharingKey() {
    return directory.toAbsolutePath().normalize() + (mapReads ? "" : " (positional reads)");
  }

  @Override
  public void delete(String name) throws IOException {
    Files.deleteIfExists(resolve(name));
  }

  @Override
  public String describe(String name) {
    return directory.resolve(name).toString();
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return directory.toString();
  }

  private static final class LocalReadableFile implements ReadableFile {
    private final ReopeningChannel channel;

    LocalReadableFile(Path path, FileChannel channel) {
      this.channel = new ReopeningChannel(path, channel);
    }

    @Override
    public long length() throws IOException {
      return channel.size();
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      channel.readFully(position, buffer, offset, length);
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private static final java.util.regex.Pattern SCHEME =
      java.util.regex.Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");

  /**
   * Whether a location a user gives (an archive, a source) is on local disk, read with {@code
   * java.nio}: no URI scheme, or {@code file:}. Anything else is for a Hadoop file system; deciding
   * here, without Hadoop, a command on local disk never loads Hadoop's classes.
   */
  public static boolean isLocal(String location) {
    return !SCHEME.matcher(location).matches() || location.startsWith("file:");
  }

  /** A local location as a path. REQUIRES: {@link #isLocal}. */
  public static Path localPath(String location) {
    return location.startsWith("file:")
        ? Path.of(java.net.URI.create(location))
        : Path.of(location);
  }
}
