package io.hpf.mount.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.SaveError;

/**
 * The C calls the session needs, through jnr-ffi (nothing to compile): read and write on the FUSE
 * device, and libfuse 3 for the mount itself only — it mounts as root and, for everyone else,
 * through fusermount3, which hands the device back over a socket.
 */
final class Native {
  private Native() {}

  /** The C library's read and write, with errno kept. */
  public interface LibC {
    @SaveError
    long read(int fd, Pointer buffer, long count);

    @SaveError
    long write(int fd, Pointer buffer, long count);
  }

  /** The five calls of libfuse 3 that make and end a mount (its request loop is not used). */
  public interface LibFuse3 {
    Pointer fuse_session_new(Pointer args, Pointer operations, long operationsSize, Pointer data);

    int fuse_session_mount(Pointer session, String mountPoint);

    int fuse_session_fd(Pointer session);

    void fuse_session_unmount(Pointer session);

    void fuse_session_destroy(Pointer session);
  }

  static final int EINTR = 4;
  static final int ENOENT = 2;
  static final int EAGAIN = 11;
  static final int ENODEV = 19;

  static final LibC LIBC = LibraryLoader.create(LibC.class).load("c");
  static final Runtime RUNTIME = Runtime.getRuntime(LIBC);

  static int lastError() {
    return RUNTIME.getLastError();
  }

  private static LibFuse3 fuse3;

  /** libfuse 3, loaded once. */
  static synchronized LibFuse3 fuse3() throws IOException {
    if (fuse3 == null) {
      try {
        fuse3 = LibraryLoader.create(LibFuse3.class).failImmediately().load("fuse3");
      } catch (LinkageError e) {
        throw new IOException(
            "hpf mount needs libfuse 3: run scripts/install-fuse.sh (apt-get install fuse3)", e);
      }
    }
    return fuse3;
  }

  /**
   * Loads both libraries now. jnr-ffi makes their Java side when they load, about a quarter of a
   * second of a mount's start: done in the background while the archive opens, it costs none.
   */
  static void load() {
    try {
      fuse3();
    } catch (IOException | RuntimeException e) {
      // said again, and answered, when the mount is made
    }
    LIBC.getClass();
  }

  /** A mount made by libfuse 3: its session and the FUSE device's descriptor. */
  static final class Mount {
    private final LibFuse3 fuse;
    private final Pointer session;
    private final List<Pointer> keep; // the arguments' memory, which the session may point into
    final int fd;

    private Mount(LibFuse3 fuse, Pointer session, List<Pointer> keep, int fd) {
      this.fuse = fuse;
      this.session = session;
      this.keep = keep;
      this.fd = fd;
    }

    /**
     * Mounts at {@code dir} with {@code options} (as to a FUSE program: "-o", "ro,fsname=..."); an
     * option libfuse does not know, or a refused mount, is an error (libfuse says why on stderr).
     */
    static Mount at(Path dir, List<String> options) throws IOException {
      LibFuse3 fuse = fuse3();
      List<String> argv = new ArrayList<>();
      argv.add("hpf");
      argv.addAll(options);
      List<Pointer> keep = new ArrayList<>();
      Pointer args = arguments(argv, keep);
      Pointer noOperations = Memory.allocateDirect(RUNTIME, 8, true);
      keep.add(noOperations);
      Pointer session = fuse.fuse_session_new(args, noOperations, 8, null);
      if (session == null) {
        throw new IOException(
            dir + ": libfuse refused the mount options" + FuseSession.SAID_BEFORE);
      }
      if (fuse.fuse_session_mount(session, dir.toString()) != 0) {
        fuse.fuse_session_destroy(session);
        throw new IOException(dir + ": the mount was refused" + FuseSession.SAID_BEFORE);
      }
      return new Mount(fuse, session, keep, fuse.fuse_session_fd(session));
    }

    /** {@code struct fuse_args} of {@code argv}: argc, argv, allocated (0: libfuse frees none). */
    private static Pointer arguments(List<String> argv, List<Pointer> keep) {
      Pointer vector = Memory.allocateDirect(RUNTIME, 8L * (argv.size() + 1), true);
      keep.add(vector);
      for (int i = 0; i < argv.size(); i++) {
        byte[] utf8 = argv.get(i).getBytes(StandardCharsets.UTF_8);
        Pointer s = Memory.allocateDirect(RUNTIME, utf8.length + 1, true);
        s.put(0, utf8, 0, utf8.length);
        keep.add(s);
        vector.putPointer(8L * i, s);
      }
      Pointer args = Memory.allocateDirect(RUNTIME, 24, true);
      keep.add(args);
      args.putInt(0, argv.size());
      args.putPointer(8, vector);
      args.putInt(16, 0);
      return args;
    }

    /** Unmounts (if still mounted) and closes the device. */
    void close() {
      fuse.fuse_session_unmount(session);
      fuse.fuse_session_destroy(session);
      keep.clear();
    }
  }
}
