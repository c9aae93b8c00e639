package io.hpf.mount;

import io.hpf.archive.ArchiveReader;
import io.hpf.mount.fuse.FuseSession;
import io.hpf.mount.fuse.ReadOnlyFileSystem;
import java.io.IOException;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Tells the kernel to forget what it cached of names a commit may have changed, so that it can
 * trust names for an hour otherwise (a walk of an unchanged tree is then the kernel's alone, as on
 * a local file system) and still see a commit at once: forgetting a name at the top of the tree
 * drops every cached name under it, which the kernel then looks up anew (and the root's cached
 * listing with it).
 */
final class KernelNotices {
  private volatile FuseSession session;

  /** From now on, notices go to {@code mounted}. */
  void attach(FuseSession mounted) {
    this.session = mounted;
  }

  /**
   * The top-level names of the mount whose cached state a commit of a single mounted archive may
   * have changed: every top-level name of the generation before and of the one now served.
   */
  static Set<String> topLevelNames(ArchiveReader before, ArchiveReader now) throws IOException {
    Set<String> names = new TreeSet<>();
    try {
      ArchiveTree.childNames(before, "/", names::add);
    } catch (IOException | RuntimeException gone) {
      // The generation before cannot be listed: its files are another archive's now, or gone
      // (the archive was replaced). The new one's names are told all the same.
    }
    ArchiveTree.childNames(now, "/", names::add);
    return names;
  }

  /**
   * The kernel forgets these top-level names of the mount, and so everything it cached below them.
   * Not from a request's thread: the kernel may wait on a request while it forgets.
   */
  void forget(Collection<String> topLevelNames) {
    FuseSession mounted = session;
    if (mounted == null) {
      return;
    }
    for (String name : topLevelNames) {
      mounted.forgetEntry(ReadOnlyFileSystem.ROOT, name);
    }
  }
}
