package io.hpf.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.testing.StorageConformanceSuite;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The archive conformance suite on s3a:// against a real S3 server (SeaweedFS, a process of its
 * own): every codec, changes and compactions against the model, two writers (the second refused,
 * and two racing: one wins), readers keeping their snapshot and seeing a commit on refresh.
 * Skipped, saying so, where SeaweedFS has not been built ({@code scripts/install-seaweedfs.sh};
 * {@code scripts/test.sh -Plong} builds it).
 */
@Tag("long")
class S3aConformanceTest extends StorageConformanceSuite {
  private static SeaweedS3 s3;

  @BeforeAll
  static void startServer() throws Exception {
    s3 = SeaweedS3.sharedOrSkip();
  }

  /**
   * Two writers taking the lock at the same moment: each opened its lock file before the other
   * wrote its own. S3 has no create that fails at once; the second to finish is refused by the
   * store (If-None-Match), so exactly one holds the lock.
   */
  @Test
  void ofTwoWritersRacingForTheLockOneWins() throws Exception {
    Storage storage = newStorage("race.hpf");
    AppendableFile first = storage.create("hpf.lock", FileUse.ONCE);
    first.write("host a, pid 1, since then".getBytes(StandardCharsets.UTF_8));
    try (AppendableFile second = storage.create("hpf.lock", FileUse.ONCE)) {
      second.write("host b, pid 2, since then".getBytes(StandardCharsets.UTF_8));
    }
    assertThrows(FileAlreadyExistsException.class, first::close);
    try (ReadableFile lock = storage.openRead("hpf.lock", FileUse.ONCE)) {
      assertEquals(
          "host b, pid 2, since then",
          new String(lock.readFully(0, (int) lock.length()), StandardCharsets.UTF_8));
    }
  }

  @Override
  protected Storage newStorage(String name) throws Exception {
    return HadoopStorage.createDirectories(
        s3.fs(), s3.freshPath(name), HadoopStorageOptions.DEFAULTS, false);
  }
}
