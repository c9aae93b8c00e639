package io.hpf.mount;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code hpf umount}: ends a mount, a stale one (its process gone) included. */
@Command(
    name = "hpf umount",
    mixinStandardHelpOptions = true,
    description = {
      "Unmounts what hpf mount mounted at DIR, also when its process has died; the mount's",
      "process then ends. The same as fusermount3 -u DIR.",
      "",
      "  hpf umount /mnt/photos"
    })
public final class UnmountMain implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "Where the archive is mounted.")
  Path mountPoint;

  public static void main(String[] args) {
    System.exit(MountMain.run(new UnmountMain(), "hpf umount", args));
  }

  @Override
  public Integer call() throws Exception {
    Path dir = mountPoint.toAbsolutePath().normalize();
    if (Mounts.typeAt(dir) == null) {
      throw new java.io.IOException(dir + ": nothing is mounted here");
    }
    Mounts.unmount(dir);
    return 0;
  }
}
