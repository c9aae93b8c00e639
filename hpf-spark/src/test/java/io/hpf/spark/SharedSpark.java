package io.hpf.spark;

import io.hpf.hadoop.HdfsSettings;
import org.apache.spark.sql.SparkSession;

/**
 * One Spark session (local mode, two cores) for every test class of this JVM: starting one takes
 * seconds. It stops when the JVM exits; test classes must not stop it.
 */
public final class SharedSpark {
  private static SparkSession session;

  private SharedSpark() {}

  public static synchronized SparkSession session() {
    if (session == null) {
      session =
          SparkSession.builder()
              .master("local[2,2]") // two cores; a failed task is tried once more
              .appName("hpf-tests")
              .config("spark.driver.host", "127.0.0.1")
              .config("spark.driver.bindAddress", "127.0.0.1")
              .config("spark.ui.enabled", "false")
              .config("spark.sql.shuffle.partitions", "2")
              .getOrCreate();
      HdfsSettings.applyFastClose(session.sparkContext().hadoopConfiguration());
      SparkSession started = session;
      Runtime.getRuntime().addShutdownHook(new Thread(started::stop));
    }
    return session;
  }
}
