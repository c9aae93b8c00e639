package io.hpf.mount;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  /** How often, in refreshes, a directory of archives is searched again for archives. */
  private static final int RESCAN_EVERY = 10;

  private final MountedArchives archives;
  private final ArchiveFs fs;
  private int refreshes;
  private final Path dir;
  private final MountLog log;

  Serving(MountedArchives archives, ArchiveFs fs, Path dir, MountLog log) {
    this.archives = archives;
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
            + archives.location()
            + " at "
            + dir
            + " (process "
            + ProcessHandle.current().pid()
            + ")");
    try {
      fs.mount(dir, true, false, options(archives.location(), userOptions).toArray(new String[0]));
    } catch (ru.serce.jnrfuse.FuseException e) { // libfuse said why on stderr, the log
      throw new java.io.IOException(dir + ": the mount was refused (the line before says why)", e);
    } finally {
      refresher.shutdownNow();
      log.info("unmounted " + dir);
    }
  }

  private void refresh() {
    for (Map.Entry<String, LiveArchive> e : archives.openArchives().entrySet()) {
      String id = e.getKey();
      LiveArchive live = e.getValue();
      try {
        boolean changed =
            live.refresh(
                (before, now) ->
                    fs.notices()
                        .forget(
                            archives.single()
                                ? KernelNotices.topLevelNames(before, now)
                                : List.of(firstName(id))));
        if (changed) {
          log.info(live.name() + ": serving a new generation");
        }
      } catch (Exception ex) { // one failed look must not stop the refresher
        log.warn(live.name() + ": looking for a newer generation: " + ex.getMessage());
      }
    }
    if (!archives.single() && ++refreshes % RESCAN_EVERY == 0) {
      try {
        List<String> changed = archives.rescan();
        fs.notices().forget(changed.stream().map(Serving::firstName).distinct().toList());
      } catch (Exception ex) {
        log.warn(archives.location() + ": looking for archives: " + ex.getMessage());
      }
    }
  }

  /** The top-level name of the mount an archive id lies under. */
  private static String firstName(String id) {
    int slash = id.indexOf('/');
    return slash < 0 ? id : id.substring(0, slash);
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
