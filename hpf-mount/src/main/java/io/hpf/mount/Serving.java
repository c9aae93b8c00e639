package io.hpf.mount;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A mount while it serves: the FUSE loop (libfuse's, multithreaded) on this thread, the archive
 * refreshed in the background, and an unmount when the process is asked to end.
 */
final class Serving {
  /** How often a commit is looked for: a commit is seen within this, the server's rule. */
  static final long REFRESH_MILLIS = 500;

  /**
   * How long the kernel may trust what it was told of a name that exists: an hour, as a commit
   * makes it forget what the commit may have changed ({@link KernelNotices}). That a name does not
   * exist is not kept at all.
   */
  static final String KERNEL_TIMEOUT_SECONDS = "3600";

  private final LiveArchive live;
  private final ArchiveFs fs;
  private final Path dir;
  private final MountLog log;

  Serving(LiveArchive live, ArchiveFs fs, Path dir, MountLog log) {
    this.live = live;
    this.fs = fs;
    this.dir = dir;
    this.log = log;
  }

  /** The FUSE options: read-only, named, our inode numbers, the timeouts, then the user's. */
  static List<String> options(String archive, List<String> user) {
    String fsName = "hpf:" + archive.replace(",", "\\,");
    List<String> o = new ArrayList<>();
    o.add("ro");
    o.add("fsname=" + fsName);
    o.add("subtype=hpf");
    o.add("use_ino");
    o.add("entry_timeout=" + KERNEL_TIMEOUT_SECONDS);
    o.add("negative_timeout=0");
    o.add("attr_timeout=" + KERNEL_TIMEOUT_SECONDS);
    o.add("max_read=1048576");
    for (String u : user) {
      if (!u.isBlank() && !u.equals("rw")) {
        o.add(u.strip());
      }
    }
    return List.of("-o", String.join(",", o));
  }

  /** Serves until unmounted (hpf umount, fusermount -u) or the process is ended. */
  void run(List<String> userOptions) throws java.io.IOException {
    ScheduledExecutorService refresher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "hpf-mount-refresh");
              t.setDaemon(true);
              return t;
            });
    refresher.scheduleWithFixedDelay(
        this::refresh, REFRESH_MILLIS, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
    Thread unmountOnExit = new Thread(this::unmountQuietly, "hpf-mount-exit");
    Runtime.getRuntime().addShutdownHook(unmountOnExit);
    log.info(
        "serving "
            + live.name()
            + " at "
            + dir
            + " (process "
            + ProcessHandle.current().pid()
            + ")");
    try {
      fs.mount(dir, true, false, options(live.name(), userOptions).toArray(new String[0]));
    } catch (ru.serce.jnrfuse.FuseException e) { // libfuse said why on stderr, the log
      throw new java.io.IOException(dir + ": the mount was refused (the line before says why)", e);
    } finally {
      refresher.shutdownNow();
      log.info("unmounted " + dir);
    }
  }

  private void refresh() {
    try {
      if (live.refresh(fs.notices()::commitSeen)) {
        log.info(live.name() + ": serving a new generation");
      }
    } catch (Exception e) { // one failed look must not stop the refresher
      log.warn(live.name() + ": looking for a newer generation: " + e.getMessage());
    }
  }

  private void unmountQuietly() {
    try {
      if (Mounts.typeAt(dir) != null) {
        Mounts.unmount(dir);
      }
    } catch (Exception e) {
      log.warn("unmounting " + dir + ": " + e.getMessage());
    }
  }
}
