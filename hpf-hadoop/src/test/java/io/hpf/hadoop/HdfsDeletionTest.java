package io.hpf.hadoop;

import io.hpf.store.Storage;
import io.hpf.testing.DeletionSuite;
import org.junit.jupiter.api.BeforeAll;

/** Deleted entries stay deleted, on a real HDFS (MiniDFSCluster). */
class HdfsDeletionTest extends DeletionSuite {
  private static MiniHdfs hdfs;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = MiniHdfs.shared();
  }

  @Override
  protected Storage newStorage(String name) throws Exception {
    return hdfs.newArchive(name);
  }
}
