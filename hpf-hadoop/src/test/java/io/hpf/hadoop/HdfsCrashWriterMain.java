package io.hpf.hadoop;

import io.hpf.crash.CrashWriterMain;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The crash writer process of {@link HdfsCrashTest}: the crash scenario against an HDFS URI. */
public final class HdfsCrashWriterMain {
  private HdfsCrashWriterMain() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    HdfsSettings.applyFastClose(conf);
    conf.setInt("dfs.replication", 2); // as the test's cluster
    URI uri = URI.create(args[0]);
    FileSystem fs = FileSystem.newInstance(uri, conf);
    CrashWriterMain.run(
        HadoopStorage.open(fs, new Path(uri), HadoopStorageOptions.DEFAULTS, true),
        Long.parseLong(args[1]),
        Integer.parseInt(args[2]));
  }
}
