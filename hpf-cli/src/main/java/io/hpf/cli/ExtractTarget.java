package io.hpf.cli;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes entries as files under a directory, safely and with few system calls. A name that is not
 * in normal form (could escape the directory with "..", an absolute path or a drive letter) is
 * refused. Each file is written once: created with its permission bits, written, its times set,
 * closed; small content was read whole and its checksum checked before the file is created, and a
 * large entry whose checksum fails at its end is deleted, so no wrong file is left behind.
 * Directories are made once each, before the files. Thread-safe.
 */
final class ExtractTarget {
  /** Content up to this size is read whole (and checked) before its file is created. */
  private static final int WHOLE_MAX_BYTES = 1 << 20;

  /**
   * Create or truncate, never through a symbolic link: a link already in the target directory (say
   * {@code a -> /etc/passwd}) is replaced by the entry, as {@code tar} does, not written through.
   */
  private static final Set<OpenOption> CREATE =
      Set.of(
          StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE,
          LinkOption.NOFOLLOW_LINKS);

  private static final PosixFilePermission[] BITS = {
    PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
    PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
    PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
    PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
    PosixFilePermission.OWNER_READ
  };

  private final Path root;
  private final boolean posix;

  /** Permission bits the process's umask takes away at create, to be set again by chmod. */
  private final int umask;

  ExtractTarget(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    Files.createDirectories(this.root);
    this.posix = Files.getFileStore(this.root).supportsFileAttributeView("posix");
    this.umask = Umask.current();
  }

  /** Why a name cannot be extracted, or null if it can. */
  String refusal(String name) {
    String why = ArchiveFormat.whyNotNormal(name);
    if (why != null) {
      return why;
    }
    Path target = root.resolve(name).normalize();
    return target.startsWith(root) && !target.equals(root) ? null : "it resolves outside " + root;
  }

  /** The parent directories of the names, each once, sorted (a parent before its children). */
  static TreeSet<String> parents(Collection<String> names) {
    TreeSet<String> parents = new TreeSet<>();
    for (String name : names) {
      for (int slash = name.lastIndexOf('/');
          slash > 0 && parents.add(name.substring(0, slash));
          slash = name.lastIndexOf('/', slash - 1)) {
        // every ancestor once; a known ancestor means its own ancestors are known too
      }
    }
    return parents;
  }

  /** Makes the parent directory of every name once, parents before children. */
  void makeDirectories(Collection<String> names) throws IOException {
    for (String dir : parents(names)) { // sorted: "a" before "a/b"
      Path path = root.resolve(dir);
      try {
        Files.createDirectory(path);
      } catch (FileAlreadyExistsException e) {
        if (Files.isSymbolicLink(path)) {
          // A link in the target directory is replaced, never followed out of it (as tar does).
          Files.delete(path);
          Files.createDirectory(path);
        } else if (!Files.isDirectory(path)) {
          throw new IOException(
              "cannot extract into '" + dir + "': a file of that name is in the way", e);
        }
      }
    }
  }

  /**
   * Writes one entry. REQUIRES: its parent directory exists ({@link #makeDirectories}) and {@link
   * #refusal} found nothing wrong with its name.
   */
  void write(EntryInfo info, InputStream content) throws IOException {
    Path target = root.resolve(info.name());
    if (info.rawLength() <= WHOLE_MAX_BYTES) {
      // Read (and so checked) before any file exists.
      ByteBuffer bytes = ByteBuffer.wrap(content.readAllBytes());
      try (FileChannel out = open(target, info.mode())) {
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
      } catch (FileSystemException e) {
        throw e; // names the file already
      } catch (IOException e) { // a full disk: name the file, leave no half of it
        Files.deleteIfExists(target);
        throw new IOException(target + ": " + OutputTarget.reason(e), e);
      }
    } else {
      try (FileChannel out = open(target, info.mode())) {
        // Checks the CRC32C at its end; write errors name the file.
        content.transferTo(new OutputTarget(Channels.newOutputStream(out), target.toString()));
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(target);
        throw e;
      }
    }
    finish(target, info);
  }

  /** Writes one entry, making its parent directories first (a few named entries). */
  void writeWithParents(EntryInfo info, InputStream content) throws IOException {
    String why = refusal(info.name());
    if (why != null) {
      throw new IOException("refusing to extract '" + info.name() + "': " + why);
    }
    Files.createDirectories(root.resolve(info.name()).getParent());
    write(info, content);
  }

  private FileChannel open(Path target, int mode) throws IOException {
    FileAttribute<?>[] attributes =
        posix
            ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions(mode))}
            : new FileAttribute<?>[0];
    try {
      return FileChannel.open(target, CREATE, attributes);
    } catch (IOException e) { // ELOOP, reported in words that vary with the JDK
      if (!Files.isSymbolicLink(target)) {
        throw e;
      }
      Files.delete(target); // the link itself, never what it points to
      return FileChannel.open(target, CREATE, attributes);
    }
  }

  /** Times, and the permission bits the umask took away at create (rarely any). */
  private void finish(Path target, EntryInfo info) throws IOException {
    FileTime mtime = FileTime.fromMillis(info.mtimeMillis());
    // Both times at once: setting only one makes the JDK read the other first (one more call).
    Files.getFileAttributeView(target, BasicFileAttributeView.class).setTimes(mtime, mtime, null);
    if (posix && (info.mode() & 0777 & umask) != 0) {
      Files.setPosixFilePermissions(target, permissions(info.mode()));
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    for (int bit = 0; bit < BITS.length; bit++) {
      if ((mode & (1 << bit)) != 0) {
        permissions.add(BITS[bit]);
      }
    }
    return permissions;
  }
}
