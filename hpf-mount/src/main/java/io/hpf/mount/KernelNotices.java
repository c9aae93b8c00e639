package io.hpf.mount;

import io.hpf.archive.ArchiveReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Pointer;

/**
 * Tells the kernel to forget what it cached of names a commit may have changed, so that it can
 * trust names for an hour otherwise (a walk of an unchanged tree is then the kernel's alone, as on
 * a local file system) and still see a commit at once. libfuse 2's high-level interface keeps the
 * kernel's node numbers to itself, but the root's is fixed (1): forgetting each name at the top of
 * the tree drops every cached name under it, which the kernel then looks up anew.
 */
final class KernelNotices {
  /** The three calls of libfuse 2 this needs (libfuse.so.2, as jnr-fuse loads it). */
  public interface LibFuseNotify {
    Pointer fuse_get_session(Pointer fuse);

    Pointer fuse_session_next_chan(Pointer session, Pointer previous);

    int fuse_lowlevel_notify_inval_entry(Pointer channel, long parent, byte[] name, long length);
  }

  private static final long ROOT_NODE = 1;

  private final LibFuseNotify fuse;
  private final MountLog log;
  private volatile Pointer channel;

  KernelNotices(MountLog log) {
    this.fuse = LibraryLoader.create(LibFuseNotify.class).load("fuse");
    this.log = log;
  }

  /** Called from libfuse's init with the context's {@code struct fuse *}. */
  void attach(Pointer fuseHandle) {
    if (fuseHandle == null) {
      return;
    }
    Pointer session = fuse.fuse_get_session(fuseHandle);
    channel = session == null ? null : fuse.fuse_session_next_chan(session, null);
  }

  /**
   * The top-level names of the mount whose cached state a commit of a single mounted archive may
   * have changed: every top-level name of the generation before and of the one now served.
   */
  static Set<String> topLevelNames(ArchiveReader before, ArchiveReader now) throws IOException {
    Set<String> names = new TreeSet<>();
    ArchiveTree.children(before, "/", names::add);
    ArchiveTree.children(now, "/", names::add);
    return names;
  }

  /**
   * The kernel forgets these top-level names of the mount, and so everything it cached below them.
   * Not from a request's thread: the kernel may wait on a request while it forgets.
   */
  void forget(Collection<String> topLevelNames) {
    Pointer ch = channel;
    if (ch == null) {
      return;
    }
    for (String name : topLevelNames) {
      byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
      int result = fuse.fuse_lowlevel_notify_inval_entry(ch, ROOT_NODE, utf8, utf8.length);
      if (result < 0 && result != -2) { // -ENOENT: the kernel had nothing of it
        log.warn("the kernel did not forget '" + name + "' (error " + -result + ")");
      }
    }
  }
}
