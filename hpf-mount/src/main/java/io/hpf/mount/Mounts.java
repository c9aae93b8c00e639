package io.hpf.mount;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the kernel says is mounted where ({@code /proc/self/mountinfo}). */
final class Mounts {
  private Mounts() {}

  /** The file system type mounted at {@code dir} ("fuse.hpf"), or null if nothing is. */
  static String typeAt(Path dir) throws IOException {
    String target = dir.toAbsolutePath().normalize().toString();
    String type = null;
    for (String line :
        Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
      // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS
      String[] fields = line.split(" ");
      int dash = line.indexOf(" - ");
      if (fields.length < 5 || dash < 0) {
        continue;
      }
      if (unescape(fields[4]).equals(target)) {
        type = line.substring(dash + 3).split(" ")[0]; // the last mount there is the one seen
      }
    }
    return type;
  }

  /** Mountinfo writes space, tab, newline and backslash as octal escapes. */
  private static String unescape(String field) {
    StringBuilder out = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && isOctal(field, i + 1)) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean isOctal(String s, int from) {
    if (from + 3 > s.length()) {
      return false;
    }
    for (int i = from; i < from + 3; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '7') {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a mount at {@code dir} has lost its server (a FUSE process killed without unmounting):
   * the kernel still lists it, and any look at it fails ("not connected").
   */
  static boolean lostItsServer(Path dir) throws IOException {
    try {
      Files.readAttributes(dir, "unix:ino");
      return false;
    } catch (java.nio.file.FileSystemException e) {
      return e.getMessage() != null && e.getMessage().contains("not connected");
    }
  }

  /** Unmounts {@code dir}: fusermount3, else fusermount, else umount (as root). */
  static void unmount(Path dir) throws IOException, InterruptedException {
    String target = dir.toAbsolutePath().normalize().toString();
    String last = null;
    for (String[] command :
        new String[][] {
          {"fusermount3", "-u", "-q", target},
          {"fusermount", "-u", "-q", target},
          {"umount", target}
        }) {
      Process p;
      try {
        p = new ProcessBuilder(command).redirectErrorStream(true).start();
      } catch (IOException missing) {
        continue; // not installed: try the next
      }
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.waitFor() == 0) {
        return;
      }
      last = command[0] + ": " + (output.isEmpty() ? "failed" : output.lines().findFirst().get());
    }
    throw new IOException(
        target
            + ": cannot unmount ("
            + (last == null ? "no fusermount3, fusermount or umount" : last)
            + ")");
  }
}
