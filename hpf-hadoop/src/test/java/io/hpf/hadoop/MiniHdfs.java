package io.hpf.hadoop;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.metrics.NameNodeMetrics;

/** A real in-process HDFS (NameNode and DataNodes) for tests, with a fresh directory per call. */
public final class MiniHdfs implements Closeable {
  /** Clusters start one at a time: each takes the NameNode metrics its NameNode made. */
  private static final Object STARTING = new Object();

  private final MiniDFSCluster cluster;
  private final NameNodeMetrics metrics;
  private final AtomicInteger serial = new AtomicInteger();

  private MiniHdfs(MiniDFSCluster cluster, NameNodeMetrics metrics) {
    this.cluster = cluster;
    this.metrics = metrics;
  }

  /** Starts a cluster of {@code dataNodes} DataNodes with files of {@code replication} copies. */
  public static MiniHdfs start(Path baseDir, int dataNodes, int replication) throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toString());
    HdfsSettings.applyFastClose(conf);
    conf.setInt("dfs.replication", replication);
    conf.setInt("dfs.namenode.replication.min", 1);
    // Small blocks, so that tests cross block boundaries with small files.
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    conf.setLong("dfs.heartbeat.interval", 1);
    // No WebHDFS (no test uses it): its Jersey 2 cannot load beside Spark's Jersey 3, and
    // hpf-spark's tests run this cluster in Spark's JVM.
    conf.setBoolean("dfs.webhdfs.enabled", false);
    synchronized (STARTING) {
      // The NameNode keeps its metrics in a static field, which the next NameNode of this JVM
      // replaces; its RPC server counts into the one it found when it started.
      MiniDFSCluster cluster =
          new MiniDFSCluster.Builder(conf).numDataNodes(dataNodes).format(true).build();
      cluster.waitActive();
      return new MiniHdfs(cluster, NameNode.getNameNodeMetrics());
    }
  }

  private static MiniHdfs shared;

  /**
   * One cluster (1 DataNode, 1 replica) for every test class of this JVM that needs no other shape:
   * starting a MiniDFSCluster takes seconds, and test classes never share paths ({@link
   * #freshPath}). It stops when the JVM exits; test classes must not close it.
   */
  public static synchronized MiniHdfs shared() throws IOException {
    if (shared == null) {
      Path base = java.nio.file.Files.createTempDirectory("hpf-minidfs");
      MiniHdfs started = start(base, 1, 1);
      io.hpf.testing.TempDirs.deleteAtExit(base, () -> stopWithin(started.cluster, base));
      shared = started;
    }
    return shared;
  }

  /**
   * Stops a cluster as its JVM exits, giving it 10 seconds (the test runner halts a JVM that takes
   * 30 to exit, and then nothing would be deleted); what it wrote before then is deleted, and again
   * once it has stopped, or 5 seconds more.
   */
  private static void stopWithin(MiniDFSCluster cluster, Path base) {
    Thread stop =
        new Thread(
            () -> {
              try {
                cluster.shutdown(true);
              } catch (IllegalStateException e) {
                // Stopping, Hadoop removes its own shutdown hooks: refused while exiting.
              }
            });
    stop.setDaemon(true);
    stop.start();
    try {
      stop.join(10_000);
      io.hpf.testing.TempDirs.deleteQuietly(base);
      stop.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  public DistributedFileSystem fs() throws IOException {
    return cluster.getFileSystem();
  }

  /** A path no other test has used. */
  public org.apache.hadoop.fs.Path freshPath(String name) {
    return new org.apache.hadoop.fs.Path("/t" + serial.incrementAndGet() + "/" + name);
  }

  /** A new, empty archive directory at a fresh path, with the default HDFS options. */
  public io.hpf.store.Storage newArchive(String name) throws IOException {
    return HadoopStorage.createDirectories(
        fs(), freshPath(name), HadoopStorageOptions.DEFAULTS, false);
  }

  /**
   * File-system operations this cluster's NameNode has served so far (opens, creates, listings,
   * ...): every client's, so a test counting them runs while no other test uses the cluster.
   */
  public long nameNodeFileOps() {
    return metrics.totalFileOps();
  }

  @Override
  public void close() {
    cluster.shutdown();
  }
}
