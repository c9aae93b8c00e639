package io.hpf.hadoop;

import io.hpf.store.Storage;
import io.hpf.testing.StorageContractSuite;

/** The storage contract on a real HDFS (the JVM's shared MiniDFSCluster). */
class HdfsStorageContractTest extends StorageContractSuite {
  @Override
  protected Storage newStorage(String name) throws Exception {
    return MiniHdfs.shared().newArchive(name);
  }
}
