package io.hpf.server;

import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.StorageLocator;
import io.hpf.hadoop.roots.ArchiveRoot;
import io.hpf.hadoop.roots.HadoopArchiveRoot;
import io.hpf.hadoop.roots.LocalArchiveRoot;
import io.hpf.server.archives.ArchiveDirectory;
import io.hpf.server.archives.ArchiveWriters;
import io.hpf.server.archives.ReaderPool;
import io.hpf.server.hot.SlidingTopK;
import io.hpf.server.http.HttpServerInitializer;
import io.hpf.server.http.RequestRouter;
import io.hpf.server.metrics.ServerMetrics;
import io.hpf.server.s3.MultipartUploads;
import io.hpf.store.LocalStorage;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The read server: archives under a root served over HTTP/1.1 on Netty's event loops (epoll where
 * the platform has it), with a worker pool for blocking work and one background thread that
 * refreshes open archives, closes idle ones and rescans the root.
 */
public final class HpfServer implements Closeable {
  private final ServerMetrics metrics = new ServerMetrics();
  private final ArchiveDirectory directory;
  private final ReaderPool pool;
  private final ArchiveWriters writers; // null unless --writable
  private final MultipartUploads uploads; // null unless --writable
  private final EventLoopGroup boss;
  private final EventLoopGroup io;
  private final ThreadPoolExecutor workers;
  private final ScheduledExecutorService background;
  private final FileSystem fileSystem;
  private final Channel channel;
  private final RequestRouter router;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  private HpfServer(ServerOptions o) throws IOException, InterruptedException {
    ArchiveRoot root;
    if (LocalStorage.isLocal(o.root)) {
      root = new LocalArchiveRoot(LocalStorage.localPath(o.root));
      fileSystem = null;
    } else {
      fileSystem =
          new StorageLocator(o.hadoopProperties, HadoopStorageOptions.DEFAULTS).fileSystem(o.root);
      root = new HadoopArchiveRoot(fileSystem, new Path(URI.create(o.root)));
    }
    directory = new ArchiveDirectory(root, o.allow, o.rescanMillis * 1_000_000L, o.nanoClock);
    SlidingTopK hotArchives =
        new SlidingTopK(o.windowMillis * 1_000_000L, o.windowSlices, o.hotCounters, o.nanoClock);
    SlidingTopK hotPrefixes =
        new SlidingTopK(o.windowMillis * 1_000_000L, o.windowSlices, o.hotCounters, o.nanoClock);
    pool =
        new ReaderPool(
            directory,
            metrics,
            hotArchives,
            o.hotK,
            o.memoryBytes,
            o.idleReaderMillis * 1_000_000L,
            o.replicateMin,
            o.nanoClock);
    workers =
        new ThreadPoolExecutor(
            o.workerThreads,
            o.workerThreads,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(10_000),
            daemon("hpf-worker"));
    background = Executors.newSingleThreadScheduledExecutor(daemon("hpf-refresh"));
    background.scheduleWithFixedDelay(
        pool::refreshAll, o.refreshMillis, o.refreshMillis, TimeUnit.MILLISECONDS);
    background.scheduleWithFixedDelay(pool::sweep, 1, 1, TimeUnit.SECONDS);
    background.scheduleWithFixedDelay(this::rescan, 1, 1, TimeUnit.SECONDS);
    if (o.writable) {
      writers =
          new ArchiveWriters(
              directory, pool, o.maxWaitingBytes, o.idleWriterMillis * 1_000_000L, o.nanoClock);
      background.scheduleWithFixedDelay(writers::closeIdle, 1, 1, TimeUnit.SECONDS);
      pool.writtenHere(writers::isWriting);
      uploads =
          new MultipartUploads(o.maxObjectBytes, o.uploadExpiryMillis * 1_000_000L, o.nanoClock);
      background.scheduleWithFixedDelay(uploads::expire, 1, 1, TimeUnit.MINUTES);
    } else {
      writers = null;
      uploads = null;
    }
    router =
        new RequestRouter(
            o, directory, pool, writers, uploads, metrics, hotArchives, hotPrefixes, workers);
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory handlers = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channelType =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    boss = new MultiThreadIoEventLoopGroup(1, handlers);
    int threads = o.ioThreads > 0 ? o.ioThreads : Runtime.getRuntime().availableProcessors();
    io = new MultiThreadIoEventLoopGroup(threads, handlers);
    channel = bind(o, channelType);
    announce(o, root.describe(), epoll);
  }

  /** Binds the listening socket; a port it cannot take is named in the error. */
  private Channel bind(ServerOptions o, Class<? extends ServerChannel> channelType)
      throws IOException, InterruptedException {
    try {
      return new ServerBootstrap()
          .group(boss, io)
          .channel(channelType)
          .option(ChannelOption.SO_BACKLOG, 1024)
          .option(ChannelOption.SO_REUSEADDR, true)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new HttpServerInitializer(o, router, metrics))
          .bind(new InetSocketAddress(o.bindAddress, o.port))
          .sync()
          .channel();
    } catch (Exception e) { // Netty throws the bind's checked exception without declaring it
      closeQuietly();
      if (e instanceof IOException) { // epoll says "bind(..) failed with error(-98): Address..."
        String message = String.valueOf(e.getMessage());
        throw new IOException(
            "cannot listen on "
                + o.bindAddress
                + ":"
                + o.port
                + ": "
                + message.substring(message.lastIndexOf(": ") + 1).strip(),
            e);
      }
      if (e instanceof InterruptedException interrupted) {
        throw interrupted;
      }
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(e.getMessage(), e);
    }
  }

  /** Says where it serves, and when it listens beyond this host, who may read. */
  private void announce(ServerOptions o, String root, boolean epoll) {
    ServerLog.info(
        "serving "
            + directory.ids().size()
            + " archives under "
            + root
            + " on "
            + o.bindAddress
            + ":"
            + port()
            + (epoll ? " (epoll)" : " (nio)"));
    if (!isLoopback(o.bindAddress)) {
      ServerLog.info(
          "listening beyond this host ("
              + o.bindAddress
              + ")"
              + (o.token == null && o.s3Keys == null
                  ? ": anyone who can reach it reads every archive (--token-file requires a"
                      + " token, --s3-keys S3 signatures)"
                  : ": requests need "
                      + String.join(
                          " or ",
                          java.util.stream.Stream.of(
                                  o.token == null ? null : "the token",
                                  o.s3Keys == null ? null : "an S3 signature")
                              .filter(java.util.Objects::nonNull)
                              .toList())));
    }
  }

  private static boolean isLoopback(String address) {
    try {
      return java.net.InetAddress.getByName(address).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  /** Starts a server; it runs until closed. */
  public static HpfServer start(ServerOptions options) throws IOException, InterruptedException {
    return new HpfServer(options);
  }

  /** The port it listens on (the one chosen when asked for port 0). */
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  public ServerMetrics metrics() {
    return metrics;
  }

  public ReaderPool readers() {
    return pool;
  }

  /** The writers of a {@code --writable} server; null otherwise. */
  public ArchiveWriters writes() {
    return writers;
  }

  /** Blocks until the server's channel closes. */
  public void awaitClose() throws InterruptedException {
    channel.closeFuture().sync();
  }

  private void rescan() {
    try {
      directory.rescanIfDue();
    } catch (IOException | RuntimeException e) {
      ServerLog.warn("walking the root: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (channel != null) {
      channel.close().syncUninterruptibly();
    }
    closeQuietly();
  }

  private void closeQuietly() {
    background.shutdownNow();
    if (writers != null) {
      writers.close(); // commits what is pending; its clients' connections are closing
      uploads.close();
    }
    workers.shutdownNow(); // before the event loops: a worker's last write still finds its loop
    try {
      workers.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    pool.close();
    if (fileSystem != null) {
      try {
        fileSystem.close();
      } catch (IOException e) {
        ServerLog.warn("closing the file system: " + e.getMessage());
      }
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      t.setUncaughtExceptionHandler(
          (thread, e) -> ServerLog.warn(thread.getName() + ": " + e.getMessage()));
      return t;
    };
  }
}
