package io.hpf.spark;

import io.hpf.hadoop.LocalHdfs;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * One real HDFS (a NameNode and three DataNodes, each a process, registered under distinct host
 * names) for every test class of this JVM. HDFS runs in processes of its own because its web
 * servers' Jersey 2 and Spark's Jersey 3 cannot load in one JVM; the tests talk to it through
 * Spark's own (shaded) Hadoop client, as a Spark job on a cluster does. It stops when the JVM
 * exits.
 */
public final class SharedHdfs {
  public static final int DATA_NODES = 3;

  private static LocalHdfs cluster;
  private static URI uri;
  private static int serial;

  private SharedHdfs() {}

  public static synchronized URI uri() throws IOException {
    if (cluster == null) {
      // Written by hpf-hadoop's build: its test classpath, with hadoop-hdfs.
      String classpath =
          Files.readString(
                  Path.of("../hpf-hadoop/target/hdfs-daemons.classpath"), StandardCharsets.UTF_8)
              .trim();
      Path base = Files.createTempDirectory("hpf-spark-hdfs");
      LocalHdfs started = new LocalHdfs(base).withDistinctHostNames().onAnyPort();
      uri = started.start(DATA_NODES, classpath, 120_000).uri();
      io.hpf.testing.TempDirs.deleteAtExit(
          base,
          () -> {
            try {
              started.stop();
            } catch (IOException e) {
              System.err.println("stopping the tests' HDFS: " + e.getMessage());
            }
          });
      cluster = started;
    }
    return uri;
  }

  /** The cluster's file system, through the session's Hadoop configuration. */
  public static FileSystem fs() throws IOException {
    Configuration conf = SharedSpark.session().sparkContext().hadoopConfiguration();
    return FileSystem.get(uri(), conf);
  }

  /** A path no other test uses. */
  public static synchronized org.apache.hadoop.fs.Path freshPath(String name) throws IOException {
    return new org.apache.hadoop.fs.Path(uri().toString() + "/t" + (serial++) + "/" + name);
  }
}
