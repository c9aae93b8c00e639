package io.hpf.mount.fuse;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jnr.ffi.Pointer;

/**
 * A mount served through the FUSE kernel protocol directly: threads read requests from the FUSE
 * device and write replies, node by node (what libfuse calls its low-level interface), with no
 * library in between. libfuse 3 only makes and ends the mount.
 *
 * <p>Why not libfuse's loop: the kernel then skips what a read-only archive does not need. Opens
 * are answered "not implemented" once, after which the kernel opens files without asking and keeps
 * their pages across opens, and closes need no flush: a file read again costs no request at all.
 * Listings carry attributes (READDIRPLUS), and the kernel keeps them (cached directories). What
 * makes this safe is the node rule of {@link ReadOnlyFileSystem}: a node never changes.
 */
public final class FuseSession implements Closeable {
  /**
   * Ends the message of a mount libfuse refused: libfuse said why on standard error, the line
   * before in the log (which {@code hpf mount} joins to it).
   */
  public static final String SAID_BEFORE = " (the line before says why)";

  /** Replies carry at most this much content: 256 pages. */
  static final int MAX_READ = 1 << 20;

  /** What the kernel may send in one request (a write of 128 KiB and its header, at most). */
  private static final int MAX_WRITE = 128 << 10;

  private static final int IN_BUFFER = MAX_WRITE + 4096;
  private static final int OUT_BUFFER = Wire.OUT_HEADER + MAX_READ;

  private final Native.Mount mount;
  private final ReadOnlyFileSystem fs;
  private final long validSeconds;
  private final Log warn;
  private final ByteBuffer notice = direct(4096 + 64);
  private final Pointer noticeAddress = Pointer.wrap(Native.RUNTIME, notice);

  /** Where a session tells what goes wrong, in the program's words. */
  public interface Log {
    void warn(String message);

    /** A request failed by a bug: it costs that request, not the mount. */
    void failed(String what, RuntimeException e);
  }

  private FuseSession(Native.Mount mount, ReadOnlyFileSystem fs, long validSeconds, Log warn) {
    this.mount = mount;
    this.fs = fs;
    this.validSeconds = validSeconds;
    this.warn = warn;
  }

  /**
   * Mounts {@code fs} at {@code dir} with FUSE {@code options} ("-o", "ro,fsname=..."); the kernel
   * may trust names and attributes for {@code validSeconds}; {@code warn} takes what goes wrong.
   */
  public static FuseSession mount(
      Path dir, List<String> options, ReadOnlyFileSystem fs, long validSeconds, Log warn)
      throws IOException {
    return new FuseSession(Native.Mount.at(dir, options), fs, validSeconds, warn);
  }

  /** Loads libfuse and the C library in a thread of their own, so that {@link #mount} is quick. */
  public static void loadInBackground() {
    Thread t = new Thread(Native::load, "hpf-fuse-load");
    t.setDaemon(true);
    t.start();
  }

  /** Serves requests on {@code threads} threads until the mount is ended (unmounted). */
  public void serve(int threads) throws InterruptedException {
    serve(threads, 0);
  }

  /**
   * Serves requests on {@code threads} threads until the mount is ended; with {@code
   * waitingThreads} above 0, those that may wait (reads, fsyncs) are answered on that many threads
   * of their own, so that the others never queue behind one. A program writing files one by one is
   * served fastest by one thread: it finds the next request already queued, or comes to it warm,
   * where each of many threads would be woken for one.
   */
  public void serve(int threads, int waitingThreads) throws InterruptedException {
    java.util.concurrent.ExecutorService waiting =
        waitingThreads <= 0
            ? null
            : java.util.concurrent.Executors.newFixedThreadPool(
                waitingThreads,
                r -> {
                  Thread t = new Thread(r, "hpf-fuse-waiting");
                  t.setDaemon(true);
                  return t;
                });
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(() -> work(waiting), "hpf-fuse-" + i);
      workers.add(t);
      t.start();
    }
    try {
      for (Thread t : workers) {
        t.join();
      }
    } finally {
      if (waiting != null) {
        waiting.shutdownNow();
      }
    }
  }

  /** Whether a request may wait long (on storage, on a commit). */
  private static boolean mayWait(int opcode) {
    return opcode == Wire.READ || opcode == Wire.FSYNC || opcode == Wire.FSYNCDIR;
  }

  /** A thread's buffers: a request, its reply. */
  private static final class Buffers {
    final ByteBuffer in = direct(IN_BUFFER);
    final Pointer inAddress = Pointer.wrap(Native.RUNTIME, in);
    final ByteBuffer out = direct(OUT_BUFFER);
    final Pointer outAddress = Pointer.wrap(Native.RUNTIME, out);
  }

  private static final ThreadLocal<Buffers> WAITING_BUFFERS = ThreadLocal.withInitial(Buffers::new);

  private static ByteBuffer direct(int size) {
    return ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder());
  }

  /**
   * One thread's loop: a request read, answered (or handed to {@code waiting}), until the device
   * says the mount is gone.
   */
  private void work(java.util.concurrent.Executor waiting) {
    Buffers b = new Buffers();
    while (true) {
      long n = Native.LIBC.read(mount.fd, b.inAddress, IN_BUFFER);
      if (n < 0) {
        int error = Native.lastError();
        if (error == Native.EINTR || error == Native.EAGAIN || error == Native.ENOENT) {
          continue; // interrupted, or a request withdrawn before it was read
        }
        if (error != Native.ENODEV) { // ENODEV: unmounted, the normal end
          warn.warn("reading from the FUSE device failed (error " + error + "): stopping");
        }
        return;
      }
      b.in.clear().limit((int) n);
      if (waiting != null && mayWait(b.in.getInt(4))) {
        byte[] request = new byte[(int) n]; // small: a read's or an fsync's arguments
        b.in.get(0, request);
        waiting.execute(
            () -> {
              Buffers w = WAITING_BUFFERS.get();
              w.in.clear().put(request).flip();
              reply(w);
            });
        continue;
      }
      reply(b);
    }
  }

  /** Answers the request in {@code b.in} and writes the reply, if it takes one. */
  private void reply(Buffers b) {
    b.out.clear();
    if (answer(b.in, b.out)) {
      long written = Native.LIBC.write(mount.fd, b.outAddress, b.out.getInt(0));
      int error = written < 0 ? Native.lastError() : 0;
      if (error != 0 && error != Native.ENOENT) { // ENOENT: the request was interrupted
        warn.warn("a reply to the kernel was refused (error " + error + ")");
      }
    }
  }

  /** Answers one request into {@code out}; false if it takes no reply. */
  private boolean answer(ByteBuffer in, ByteBuffer out) {
    int opcode = in.getInt(4);
    long unique = in.getLong(8);
    long node = in.getLong(16);
    in.position(Wire.IN_HEADER);
    out.position(Wire.OUT_HEADER);
    int error = 0;
    try {
      if (!dispatch(opcode, node, in, out)) {
        return false;
      }
    } catch (FuseError e) {
      error = e.errno();
    } catch (RuntimeException e) { // a bug must cost one request, not the mount
      warn.failed("request " + opcode, e);
      error = FuseError.EIO;
    }
    if (error != 0) {
      out.position(Wire.OUT_HEADER);
    }
    out.putInt(0, out.position()).putInt(4, -error).putLong(8, unique);
    return true;
  }

  /** Does what {@code opcode} asks, its reply's arguments into {@code out}; false: no reply. */
  private boolean dispatch(int opcode, long node, ByteBuffer in, ByteBuffer out) throws FuseError {
    if (fs instanceof WritableFileSystem writable
        && ChangeRequests.answer(writable, opcode, node, in, out, validSeconds)) {
      return true;
    }
    switch (opcode) {
      case Wire.INIT -> init(in, out);
      case Wire.LOOKUP -> Wire.putEntry(out, fs.lookup(node, name(in)), validSeconds);
      case Wire.FORGET -> {
        fs.forget(node, in.getLong());
        return false;
      }
      case Wire.BATCH_FORGET -> {
        forgetBatch(in);
        return false;
      }
      case Wire.GETATTR -> {
        out.putLong(validSeconds).putInt(0).putInt(0);
        Wire.putAttributes(out, fs.attributes(node));
      }
      case Wire.READ -> checkedRead(in, (offset, size) -> fs.read(node, offset, size, out));
      case Wire.OPENDIR -> {
        out.putLong(fs.openDirectory(node));
        // A listing that changes only by commits is kept by the kernel across opens.
        boolean kept = !(fs instanceof WritableFileSystem);
        out.putInt(kept ? Wire.FOPEN_CACHE_DIR | Wire.FOPEN_KEEP_CACHE : 0).putInt(0);
      }
      case Wire.READDIR, Wire.READDIRPLUS -> {
        long handle = in.getLong(Wire.IN_HEADER);
        long offset = in.getLong(Wire.IN_HEADER + 8);
        int size = Math.min(in.getInt(Wire.IN_HEADER + 16), MAX_READ);
        fs.readDirectory(node, handle, offset, new Listing(out, size, opcode == Wire.READDIRPLUS));
      }
      case Wire.RELEASEDIR -> fs.releaseDirectory(in.getLong(Wire.IN_HEADER));
      case Wire.STATFS -> statfs(out);
      case Wire.INTERRUPT, Wire.NOTIFY_REPLY -> {
        return false; // requests are short; an interrupted one simply completes
      }
      case Wire.DESTROY -> {
        // nothing to let go of before the device closes
      }
      case Wire.SETATTR,
              Wire.SYMLINK,
              Wire.MKNOD,
              Wire.MKDIR,
              Wire.UNLINK,
              Wire.RMDIR,
              Wire.RENAME,
              Wire.RENAME2,
              Wire.LINK,
              Wire.WRITE,
              Wire.CREATE,
              Wire.SETXATTR,
              Wire.REMOVEXATTR,
              Wire.FALLOCATE,
              Wire.COPY_FILE_RANGE,
              Wire.TMPFILE ->
          throw new FuseError(FuseError.EROFS);
      default -> throw new FuseError(FuseError.ENOSYS); // OPEN and FLUSH among them: see above
    }
    return true;
  }

  /** Agrees on the protocol and on what the kernel may do. */
  private void init(ByteBuffer in, ByteBuffer out) throws FuseError {
    int major = in.getInt();
    in.getInt(); // the kernel's minor version: it speaks ours
    int maxReadahead = in.getInt();
    int offered = in.getInt();
    if (major < Wire.MAJOR) {
      throw new FuseError(FuseError.EINVAL); // a kernel older than any this code can meet
    }
    int wanted = Wire.ASYNC_READ | Wire.DO_READDIRPLUS | Wire.PARALLEL_DIROPS | Wire.MAX_PAGES;
    if (fs instanceof WritableFileSystem) {
      wanted |= Wire.ATOMIC_O_TRUNC | Wire.BIG_WRITES; // O_TRUNC with the open; 128 KiB writes
    }
    int flags = offered & wanted;
    out.putInt(Wire.MAJOR).putInt(Wire.MINOR).putInt(maxReadahead).putInt(flags);
    out.putShort((short) 0).putShort((short) 0); // max_background, congestion: the kernel's
    out.putInt(MAX_WRITE).putInt(1); // max_write, time_gran
    out.putShort((short) (MAX_READ / 4096)).putShort((short) 0); // max_pages, map_alignment
    out.putInt(0); // flags2
    for (int i = 0; i < 7; i++) {
      out.putInt(0);
    }
  }

  private void forgetBatch(ByteBuffer in) {
    int count = in.getInt();
    in.getInt();
    for (int i = 0; i < count && in.remaining() >= 16; i++) {
      fs.forget(in.getLong(), in.getLong());
    }
  }

  /** A read of {@code size} bytes at {@code offset}. */
  interface Read {
    int read(long offset, int size) throws FuseError;
  }

  /** Reads what {@code struct fuse_read_in} asks, its offset and size checked. */
  static void checkedRead(ByteBuffer in, Read read) throws FuseError {
    long offset = in.getLong(Wire.IN_HEADER + 8);
    int size = in.getInt(Wire.IN_HEADER + 16);
    if (offset < 0 || size < 0) {
      throw new FuseError(FuseError.EINVAL);
    }
    read.read(offset, Math.min(size, MAX_READ));
  }

  private void statfs(ByteBuffer out) {
    ReadOnlyFileSystem.Usage usage = fs.usage();
    out.putLong((usage.bytes() + 4095) / 4096).putLong(0).putLong(0); // blocks, free, available
    out.putLong(usage.files()).putLong(0); // files, free
    out.putInt(4096).putInt(255).putInt(4096).putInt(0); // bsize, namelen, frsize, padding
    for (int i = 0; i < 6; i++) {
      out.putInt(0);
    }
  }

  /** A decoder per request thread: a lookup is the commonest request. */
  private static final ThreadLocal<CharsetDecoder> STRICT_UTF8 =
      ThreadLocal.withInitial(
          () ->
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT));

  /**
   * The NUL-terminated name a request carries at {@code in}'s position, which moves past it; one
   * that is not UTF-8 names nothing.
   */
  static String name(ByteBuffer in) throws FuseError {
    ByteBuffer bytes = in.slice();
    int end = 0;
    while (end < bytes.limit() && bytes.get(end) != 0) {
      end++;
    }
    in.position(Math.min(in.limit(), in.position() + end + 1));
    bytes.limit(end);
    try {
      return STRICT_UTF8.get().reset().decode(bytes).toString();
    } catch (CharacterCodingException e) {
      throw new FuseError(FuseError.ENOENT);
    }
  }

  /**
   * A listing's reply: dirents, or direntpluses (an entry before each), up to the kernel's size.
   */
  private final class Listing implements ReadOnlyFileSystem.DirectorySink {
    private final ByteBuffer out;
    private final int end;
    private final boolean plus;
    private byte[] pending;

    Listing(ByteBuffer out, int size, boolean plus) {
      this.out = out;
      this.end = Wire.OUT_HEADER + size;
      this.plus = plus;
    }

    @Override
    public boolean fits(String name) {
      pending = name.getBytes(StandardCharsets.UTF_8);
      int length = (plus ? Wire.ENTRY_SIZE : 0) + Wire.direntLength(pending.length);
      return out.position() + length <= end;
    }

    @Override
    public boolean withNodes() {
      return plus;
    }

    @Override
    public void add(String name, long next, ReadOnlyFileSystem.Entry entry) {
      if (plus) {
        Wire.putEntry(out, entry, validSeconds);
      }
      Attributes a = entry.attributes();
      Wire.putDirent(out, a.inode(), next, a.direntType(), pending);
    }
  }

  /**
   * The kernel forgets {@code name} in directory {@code parent} (and, with it, what it cached below
   * it). Not from a request's thread: the kernel may wait on a request while it forgets.
   */
  public synchronized void forgetEntry(long parent, String name) {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    if (utf8.length > 4096) {
      return; // no such name: the kernel refuses names this long
    }
    notice.clear().position(Wire.OUT_HEADER);
    notice.putLong(parent).putInt(utf8.length).putInt(0).put(utf8).put((byte) 0);
    notify(Wire.NOTIFY_INVAL_ENTRY, "'" + name + "'");
  }

  private void notify(int code, String what) {
    notice.putInt(0, notice.position()).putInt(4, code).putLong(8, 0);
    long written = Native.LIBC.write(mount.fd, noticeAddress, notice.position());
    int error = written < 0 ? Native.lastError() : 0;
    if (error != 0 && error != Native.ENOENT) { // ENOENT: the kernel had nothing of it
      warn.warn("the kernel did not forget " + what + " (error " + error + ")");
    }
  }

  /** Unmounts if still mounted and closes the device; call once {@link #serve} returned. */
  @Override
  public void close() {
    mount.close();
  }
}
