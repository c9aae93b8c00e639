package io.hpf.cli;

import io.hpf.format.EntryInfo;
import io.hpf.format.EntryNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * Writes entries as files under a directory, safely: a name that is not in normal form (could
 * escape the directory with "..", an absolute path or a drive letter) is refused, and content is
 * written to a temporary file that is renamed into place only once it was read whole and its
 * checksum held, so a damaged entry never leaves a wrong file behind.
 */
final class ExtractTarget {
  private final Path root;

  ExtractTarget(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    Files.createDirectories(this.root);
  }

  /** The path an entry goes to. */
  Path pathOf(String name) throws IOException {
    if (!EntryNames.isNormal(name)) {
      throw new IOException("refusing to extract '" + name + "': the name could escape " + root);
    }
    Path target = root.resolve(name).normalize();
    if (!target.startsWith(root) || target.equals(root)) {
      throw new IOException("refusing to extract '" + name + "': it resolves outside " + root);
    }
    return target;
  }

  void write(EntryInfo info, InputStream content) throws IOException {
    Path target = pathOf(info.name());
    Files.createDirectories(target.getParent());
    Path temp = Files.createTempFile(target.getParent(), ".hpf-", ".part");
    try {
      try (OutputStream out = Files.newOutputStream(temp)) {
        content.transferTo(out); // throws at the end if the checksum does not hold
      }
      Files.setLastModifiedTime(temp, FileTime.fromMillis(info.mtimeMillis()));
      setMode(temp, info.mode());
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static void setMode(Path file, int mode) throws IOException {
    Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] order = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
      PosixFilePermission.OWNER_READ
    };
    for (int bit = 0; bit < order.length; bit++) {
      if ((mode & (1 << bit)) != 0) {
        permissions.add(order[bit]);
      }
    }
    try {
      Files.setPosixFilePermissions(file, permissions);
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the default permissions stand.
    }
  }
}
