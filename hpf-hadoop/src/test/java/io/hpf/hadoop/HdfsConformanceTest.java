package io.hpf.hadoop;

import io.hpf.hadoop.fs.ArchivePath;
import io.hpf.hadoop.fs.HpfTree;
import io.hpf.store.Storage;
import io.hpf.testing.StorageConformanceSuite;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * The archive conformance suite of the local archive, on a real HDFS (MiniDFSCluster); every
 * archive state it checks is also read through {@code hpf://} (tree, lengths, bytes).
 */
class HdfsConformanceTest extends StorageConformanceSuite {
  private static MiniHdfs hdfs;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = MiniHdfs.shared();
  }

  @Override
  protected void assertArchive(Storage storage, TreeMap<String, byte[]> model) throws Exception {
    super.assertArchive(storage, model);
    Path root =
        new Path(ArchivePath.hpfUri(((HadoopStorage) storage).directory().toUri(), "").toString());
    // A new instance sees the archive as it is now (a cached one looks again once a second).
    try (FileSystem hpf = FileSystem.newInstance(root.toUri(), hdfs.fs().getConf())) {
      // The whole tree and every length; the bytes of a sample (the core's reader, above, reads
      // them all): reading every entry again through hpf:// doubled the suite's time on HDFS.
      HpfTree.assertMatches(hpf, root, model, 100);
    }
  }

  /** One sequence on HDFS (a step takes a second there: 25 commits, each read back twice). */
  @Override
  protected int modelSequences() {
    return LONG ? 3 : 1;
  }

  @Override
  protected Storage newStorage(String name) throws Exception {
    return hdfs.newArchive(name);
  }
}
