package io.hpf.spark;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * A Hadoop configuration that travels with Spark tasks (Spark sends tasks with Java serialization,
 * in memory; nothing here is stored). Written as Hadoop writes it: its own {@code Writable} form.
 */
public final class HadoopConf implements Serializable {
  private static final long serialVersionUID = 1L;

  private transient Configuration conf;

  public HadoopConf(Configuration conf) {
    this.conf = conf;
  }

  /**
   * The active session's Hadoop configuration with an operation's {@code fs.*} and {@code dfs.*}
   * options on top, as Spark's file sources do.
   */
  public static HadoopConf forSession(Map<String, String> options) {
    Configuration conf =
        new Configuration(SparkSession.active().sparkContext().hadoopConfiguration());
    for (var e : options.entrySet()) {
      if (e.getKey().startsWith("fs.") || e.getKey().startsWith("dfs.")) {
        conf.set(e.getKey(), e.getValue());
      }
    }
    return new HadoopConf(conf);
  }

  public Configuration get() {
    return conf;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    conf.write(out);
  }

  private void readObject(ObjectInputStream in) throws IOException {
    conf = new Configuration(false);
    conf.readFields(in);
  }
}
