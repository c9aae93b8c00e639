package io.hpf.hadoop;

import io.hpf.store.Storage;
import io.hpf.testing.StorageConformanceSuite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The archive conformance suite on s3a:// against a real S3 server (SeaweedFS, a process of its
 * own): every codec, changes and compactions against the model, two writers (the second refused),
 * readers keeping their snapshot and seeing a commit on refresh. Skipped, saying so, where
 * SeaweedFS has not been built ({@code scripts/install-seaweedfs.sh}; {@code scripts/test.sh
 * -Plong} builds it).
 */
class S3aConformanceTest extends StorageConformanceSuite {
  private static SeaweedS3 s3;

  @BeforeAll
  static void startServer() throws Exception {
    Assumptions.assumeTrue(
        SeaweedS3.binary() != null,
        "SeaweedFS is not built here: scripts/install-seaweedfs.sh builds it (once)");
    s3 = SeaweedS3.shared();
  }

  /** One sequence: each step is a few S3 requests per file. */
  @Override
  protected int modelSequences() {
    return LONG ? 3 : 1;
  }

  /** Each get is an S3 request (8 threads × 500 here, 40,000 with -Plong). */
  @Override
  protected int readsPerThread() {
    return LONG ? 5000 : 500;
  }

  @Override
  protected Storage newStorage(String name) throws Exception {
    return HadoopStorage.createDirectories(
        s3.fs(), s3.freshPath(name), HadoopStorageOptions.DEFAULTS, false);
  }
}
