package io.hpf.archive;

import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import io.hpf.testing.DeletionSuite;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Deleted entries stay deleted, on local disk. */
class DeletionTest extends DeletionSuite {
  @TempDir Path scratch;

  @Override
  protected Storage newStorage(String name) throws Exception {
    return LocalStorage.createDirectories(scratch.resolve(name));
  }
}
