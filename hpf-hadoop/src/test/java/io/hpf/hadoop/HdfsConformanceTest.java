package io.hpf.hadoop;

import io.hpf.store.Storage;
import io.hpf.testing.StorageConformanceSuite;
import org.junit.jupiter.api.BeforeAll;

/** The archive conformance suite of the local archive, on a real HDFS (MiniDFSCluster). */
class HdfsConformanceTest extends StorageConformanceSuite {
  private static MiniHdfs hdfs;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = MiniHdfs.shared();
  }

  @Override
  protected Storage newStorage(String name) throws Exception {
    return HadoopStorage.createDirectories(
        hdfs.fs(), hdfs.freshPath(name), HadoopStorageOptions.DEFAULTS, false);
  }
}
