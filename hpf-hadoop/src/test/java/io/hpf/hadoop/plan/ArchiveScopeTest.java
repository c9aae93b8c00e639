package io.hpf.hadoop.plan;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.hadoop.MiniHdfs;
import java.io.FileNotFoundException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * A path without a scheme is on the default file system: with HDFS's settings (HADOOP_CONF_DIR), a
 * local-looking path is looked for on HDFS, and the error says so and how to name local disk.
 */
class ArchiveScopeTest {
  @Test
  void aMissingArchiveNamesTheFileSystemItWasLookedIn() throws Exception {
    Configuration conf = new Configuration(MiniHdfs.shared().fs().getConf());
    String defaultFs = conf.get("fs.defaultFS");
    assertTrue(defaultFs.startsWith("hdfs://"), defaultFs);
    FileNotFoundException onHdfs =
        assertThrows(
            FileNotFoundException.class,
            () -> ArchiveScope.resolve(new Path("/tmp/not-here.hpf"), conf));
    String said = onHdfs.getMessage();
    assertTrue(
        said.startsWith(defaultFs.replaceAll("/$", "") + "/tmp/not-here.hpf: no such archive"),
        said);
    assertTrue(said.contains("fs.defaultFS = " + defaultFs), said);
    assertTrue(said.contains("file:///tmp/not-here.hpf names local disk"), said);
    FileNotFoundException local =
        assertThrows(
            FileNotFoundException.class,
            () -> ArchiveScope.resolve(new Path("file:///tmp/not-here.hpf"), conf));
    assertTrue(
        local.getMessage().startsWith("file:/tmp/not-here.hpf: no such archive"),
        local.getMessage());
  }
}
