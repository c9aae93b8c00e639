package io.hpf.mount;

import io.hpf.archive.LiveArchive;
import io.hpf.hadoop.ProgramMessages;
import io.hpf.mount.fuse.FuseSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A mount while it serves: the FUSE session's threads answering the kernel, the archive refreshed
 * in the background, and an unmount when the process is asked to end.
 */
final class Serving {
  /** How often a commit is looked for: a commit is seen within this, the server's rule. */
  static final long REFRESH_MILLIS = 500;

  /**
   * How long the kernel may trust what it was told of a name that exists: an hour, as a commit
   * makes it forget what the commit may have changed ({@link KernelNotices}). That a name does not
   * exist is not kept at all.
   */
  static final long KERNEL_TIMEOUT_SECONDS = 3600;

  /** When a commit's notices are told the kernel a second time (see {@link #refresh}). */
  private static final long AGAIN_MILLIS = 1000;

  /** Threads answering the kernel: requests wait on storage (HDFS, S3) more than on a core. */
  private static final int THREADS = 8;

  /** Threads for the requests of a writable mount that wait (reads, fsyncs). */
  private static final int WAITING_THREADS = 4;

  /** How often, in refreshes, a directory of archives is searched again for archives. */
  private static final int RESCAN_EVERY = 10;

  private final MountedArchives archives; // null for a writable mount
  private final String location;
  private final io.hpf.mount.fuse.ReadOnlyFileSystem fs;
  private final WritableArchiveFs writable; // null for a read-only mount
  private final KernelNotices notices = new KernelNotices();
  private ScheduledExecutorService refresher; // set by run; its thread refreshes
  private int refreshes;
  private final Path dir;
  private final MountLog log;

  Serving(MountedArchives archives, ArchiveFs fs, Path dir, MountLog log) {
    this.archives = archives;
    this.location = archives.location();
    this.fs = fs;
    this.writable = null;
    this.dir = dir;
    this.log = log;
  }

  /** A writable mount of the archive at {@code location}. */
  Serving(String location, WritableArchiveFs fs, Path dir, MountLog log) {
    this.archives = null;
    this.location = location;
    this.fs = fs;
    this.writable = fs;
    this.dir = dir;
    this.log = log;
  }

  /** The FUSE options: read-only (or not), named, reads of up to 1 MiB, then the user's. */
  static List<String> options(String archive, boolean writable, List<String> user) {
    String fsName = "hpf:" + archive.replace(",", "\\,");
    List<String> o = new ArrayList<>();
    o.add(writable ? "rw" : "ro");
    o.add("fsname=" + fsName);
    o.add("subtype=hpf");
    o.add("max_read=1048576");
    for (String u : user) {
      if (!u.isBlank() && !u.equals("rw") && !u.equals("ro")) {
        o.add(u.strip());
      }
    }
    return List.of("-o", String.join(",", o));
  }

  /** Serves until unmounted (hpf umount, fusermount -u) or the process is ended. */
  void run(List<String> userOptions) throws java.io.IOException {
    log.info(
        "serving "
            + location
            + " at "
            + dir
            + (writable != null ? ", writable" : "")
            + " (process "
            + ProcessHandle.current().pid()
            + ")");
    FuseSession session =
        FuseSession.mount(
            dir,
            options(location, writable != null, userOptions),
            fs,
            KERNEL_TIMEOUT_SECONDS,
            new FuseSession.Log() {
              @Override
              public void warn(String message) {
                log.warn(message);
              }

              @Override
              public void failed(String what, RuntimeException e) {
                log.warn(what + " failed: " + ProgramMessages.describe(e));
              }
            });
    notices.attach(session);
    refresher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "hpf-mount-refresh");
              t.setDaemon(true);
              return t;
            });
    if (writable == null) { // a writable mount's archive changes only by its own commits
      refresher.scheduleWithFixedDelay(
          this::refresh, REFRESH_MILLIS, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(this::endQuietly, "hpf-mount-exit"));
    try (session) {
      if (writable != null && io.hpf.store.LocalStorage.isLocal(location)) {
        // Requests answered at once on one thread (each takes microseconds: content is packed
        // and committed on others), those that wait on a pool: a program writing files one by
        // one then runs ~40% faster than with eight threads woken in turn (RUNS, issue 47).
        session.serve(1, WAITING_THREADS);
      } else {
        session.serve(THREADS); // on HDFS or S3 every request may wait on storage
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      refresher.shutdownNow();
      commitWhatIsLeft();
      log.info("unmounted " + dir);
    }
  }

  /** A writable mount's end: what was written and not yet committed is committed. */
  private void commitWhatIsLeft() {
    if (writable != null) {
      try {
        writable.close();
      } catch (Exception e) {
        log.warn(
            location + ": committing at the end: " + io.hpf.hadoop.ProgramMessages.describe(e));
      }
    }
  }

  /** Asked to end (a signal): unmounts, and commits what is left before the process goes. */
  private void endQuietly() {
    unmountQuietly();
    commitWhatIsLeft();
  }

  private void refresh() {
    for (Map.Entry<String, LiveArchive> e : archives.openArchives().entrySet()) {
      String id = e.getKey();
      LiveArchive live = e.getValue();
      try {
        boolean changed =
            live.refresh(
                (before, now) -> {
                  Collection<String> names =
                      archives.single()
                          ? KernelNotices.topLevelNames(before, now)
                          : List.of(firstName(id));
                  notices.forget(names);
                  // A lookup the kernel sent before the swap may be answered from the generation
                  // before after this notice, and the kernel would keep that answer for an hour:
                  // told again once such lookups have long been answered.
                  refresher.schedule(
                      () -> notices.forget(names), AGAIN_MILLIS, TimeUnit.MILLISECONDS);
                });
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
        notices.forget(changed.stream().map(Serving::firstName).distinct().toList());
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
