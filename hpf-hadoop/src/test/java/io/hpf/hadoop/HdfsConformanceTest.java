package io.hpf.hadoop;

import io.hpf.store.Storage;
import io.hpf.testing.StorageConformanceSuite;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The archive conformance suite of the local archive, on a real HDFS (MiniDFSCluster). */
class HdfsConformanceTest extends StorageConformanceSuite {
  @TempDir static Path base;
  private static MiniHdfs hdfs;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = MiniHdfs.start(base, 1, 1);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Override
  protected Storage newStorage(String name) throws Exception {
    return HadoopStorage.createDirectories(
        hdfs.fs(), hdfs.freshPath(name), HadoopStorageOptions.DEFAULTS, false);
  }
}
