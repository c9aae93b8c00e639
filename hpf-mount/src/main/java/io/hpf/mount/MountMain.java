package io.hpf.mount;

import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.StorageLocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hpf mount}: the mount's command line. */
@Command(
    name = "hpf mount",
    mixinStandardHelpOptions = true,
    description = {
      "Mounts an archive as a directory tree (FUSE): every program reads inside it, and with",
      "--writable writes files into it.",
      "Returns once the mount answers and serves in the background; hpf umount DIR ends it.",
      "",
      "  hpf mount photos.hpf /mnt/photos",
      "  hpf mount /data/archives/ /mnt/archives       # /mnt/archives/a/photos/... for a/photos.hpf",
      "  hpf mount hdfs://nn:9000/data/logs.hpf /mnt/logs --foreground",
      "  hpf mount --writable logs.hpf /mnt/logs       # cp, tar x, rsync into it; hpf umount commits",
      "  hpf umount /mnt/photos",
      "",
      "A commit is seen within about a second; files already open keep their bytes.",
      "docs/MOUNT.md has the details."
    })
public final class MountMain implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "ARCHIVE",
      description =
          "The archive, or a directory: every archive (*.hpf) under it, each at its path;"
              + " local or a URI.")
  String archive;

  @Parameters(index = "1", paramLabel = "DIR", description = "An empty directory to mount at.")
  Path mountPoint;

  @Option(
      names = {"-f", "--foreground"},
      description = "Serve in this process until unmounted or interrupted; log to stderr.")
  boolean foreground;

  @Option(
      names = "-o",
      paramLabel = "OPTIONS",
      split = ",",
      description = "FUSE mount options, e.g. allow_other (repeatable, comma-separated).")
  List<String> fuseOptions = new ArrayList<>();

  @Option(names = "--uid", description = "Owner shown for every file (default: yours).")
  Integer uid;

  @Option(names = "--gid", description = "Group shown for every file (default: yours).")
  Integer gid;

  @Option(
      names = "--memory",
      description =
          "Bytes open files may keep of their content, e.g. 256m (default: ${DEFAULT-VALUE});"
              + " past it content is streamed.")
  String memory = "256m";

  @Option(
      names = "--log",
      paramLabel = "FILE",
      description = "The log in the background (default: ~/.cache/hpf/mount/<DIR>.log).")
  Path logFile;

  @Option(
      names = "--writable",
      description =
          "Files written in the mount land in the archive (made if missing): closed files are"
              + " committed within a moment, fsync waits for it. docs/MOUNT.md \"Writing\".")
  boolean writable;

  @Option(
      names = "--spill",
      paramLabel = "DIR",
      description =
          "Where files being written are kept past --memory (default: a directory under"
              + " java.io.tmpdir, removed when the mount ends).")
  Path spill;

  @Option(names = "-D", paramLabel = "KEY=VALUE", description = "A Hadoop setting (repeatable).")
  Map<String, String> properties = new LinkedHashMap<>();

  /** The arguments as given, for the mount started in the background. */
  private List<String> given = List.of();

  /** The command that runs this class, for the mount started in the background. */
  private List<String> mountMain = List.of();

  public static void main(String[] args) {
    List<String> given = List.of(args);
    if (given.contains("--foreground") || given.contains("-f")) {
      // Before the command line is even read: the mount's start waits on nothing else.
      io.hpf.mount.fuse.FuseSession.loadInBackground();
    }
    MountMain main = new MountMain();
    main.given = List.of(args);
    main.mountMain = Daemon.thisJvmCommand();
    System.exit(run(main, "hpf mount", args));
  }

  /**
   * {@code hpf mount} in the CLI's own JVM, which loads this class rather than start a JVM only to
   * start another: runs the command with {@code args}, the mount's process started with {@code
   * mountMain} (java, flags, classpath, this class). Returns the exit code.
   */
  public static int inCli(List<String> args, List<String> mountMain) {
    MountMain main = new MountMain();
    main.given = List.copyOf(args);
    main.mountMain = List.copyOf(mountMain);
    return run(main, "hpf mount", args.toArray(new String[0]));
  }

  /** Runs a command of this module, errors as one line in hpf's words. */
  static int run(Object command, String name, String[] args) {
    CommandLine cli = new CommandLine(command);
    cli.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          cmd.getErr().println(name + ": " + io.hpf.hadoop.ProgramMessages.describe(e));
          return 1;
        });
    return cli.execute(args);
  }

  @Override
  public Integer call() throws Exception {
    long memoryBytes = parseSize(memory);
    Path dir = mountPoint.toAbsolutePath().normalize();
    checkMountPoint(dir);
    if (io.hpf.store.LocalStorage.isLocal(archive)
        && dir.startsWith(
            io.hpf.store.LocalStorage.localPath(archive).toAbsolutePath().normalize())) {
      // The mount would be searched for archives through itself.
      throw new IOException(
          dir + ": inside " + archive + ", what it would mount: mount it elsewhere");
    }
    if (!foreground) {
      return Daemon.start(mountMain, given, archive, dir, logFileFor(dir));
    }
    MountLog log = new MountLog(System.err);
    int owner = uid != null ? uid : (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    int group = gid != null ? gid : (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:gid");
    if (writable) {
      WritableMount.serve(
          archive,
          new StorageLocator(properties, HadoopStorageOptions.DEFAULTS),
          dir,
          spill,
          new MemoryBudget(memoryBytes),
          owner,
          group,
          log,
          fuseOptions);
      return 0;
    }
    try (MountedArchives archives =
        MountedArchives.at(
            archive, new StorageLocator(properties, HadoopStorageOptions.DEFAULTS))) {
      ArchiveFs fs = new ArchiveFs(archives, log, new MemoryBudget(memoryBytes), owner, group);
      new Serving(archives, fs, dir, log).run(fuseOptions);
    }
    return 0;
  }

  /** Refuses a mount point that cannot be used, saying what to do. */
  static void checkMountPoint(Path dir) throws IOException {
    boolean mounted = Mounts.typeAt(dir) != null;
    if (mounted && Mounts.lostItsServer(dir)) {
      throw new IOException(
          dir
              + ": an earlier mount here ended without unmounting; clear it with hpf umount "
              + dir
              + " (or fusermount3 -u "
              + dir
              + "), then mount again");
    }
    if (!Files.isDirectory(dir)) {
      throw new IOException(dir + ": no such directory (make it first: mkdir -p " + dir + ")");
    }
    if (mounted) {
      throw new IOException(dir + ": something is mounted here already (hpf umount " + dir + ")");
    }
  }

  private Path logFileFor(Path dir) {
    if (logFile != null) {
      return logFile.toAbsolutePath();
    }
    String flat = dir.toString().substring(1).replace('/', '_');
    return Path.of(System.getProperty("user.home"), ".cache", "hpf", "mount", flat + ".log");
  }

  /** "256m", "2g", "1048576" to bytes. */
  private static long parseSize(String s) {
    try {
      long n = TraditionalBinaryPrefix.string2long(s.strip());
      if (n <= 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a size: '" + s + "' (say 256m or 2g)", e);
    }
  }
}
