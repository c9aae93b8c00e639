package io.hpf.hadoop;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The site files of {@code $HADOOP_CONF_DIR}, added to a configuration as the hadoop command does.
 */
public final class SiteFiles {
  private SiteFiles() {}

  /** Adds those of {@code names} that {@code $HADOOP_CONF_DIR} holds; returns {@code conf}. */
  public static <C extends Configuration> C addFromEnvironment(C conf, String... names) {
    String dir = System.getenv("HADOOP_CONF_DIR");
    if (dir != null && !dir.isEmpty()) {
      for (String name : names) {
        File site = new File(dir, name);
        if (site.isFile()) {
          conf.addResource(new Path(site.toURI()));
        }
      }
    }
    return conf;
  }
}
