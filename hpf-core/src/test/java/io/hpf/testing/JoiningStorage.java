package io.hpf.testing;

import io.hpf.format.FileNames;
import io.hpf.store.AppendableFile;
import io.hpf.store.FileUse;
import io.hpf.store.ForwardingStorage;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Local disk that joins files as HDFS {@code concat} does (the sources' bytes end up after the
 * target's, the sources are gone), by copying: what the joined layout looks like to readers,
 * without a cluster. When told to crash at the next commit, the manifest's rename fails and every
 * later delete is ignored, as after a {@code kill -9}: what the writer made stays on disk.
 */
public final class JoiningStorage extends ForwardingStorage {
  private final LocalStorage local;
  private volatile boolean crashAtCommit;
  private volatile boolean crashed;
  private final java.util.concurrent.CountDownLatch partsOpen =
      new java.util.concurrent.CountDownLatch(2);

  public JoiningStorage(LocalStorage local) {
    super(local);
    this.local = local;
  }

  /** The next manifest commit fails, and the writer's clean-up after it does nothing. */
  public void crashAtNextCommit() {
    crashAtCommit = true;
  }

  /**
   * Holds the creation of the first part file until a second is being created (at most 10 s), so
   * that two writer threads really fill two parts: a thread that found no idle part waits here
   * while the other finds none either. Without it one thread may write everything into one part.
   */
  @Override
  public AppendableFile create(String name, FileUse use) throws IOException {
    if (FileNames.isPartFileName(name)) {
      partsOpen.countDown();
      try {
        partsOpen.await(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return super.create(name, use);
  }

  @Override
  public boolean join(String target, List<String> sources) throws IOException {
    Path dir = local.directory();
    try (FileChannel out = FileChannel.open(dir.resolve(target), StandardOpenOption.APPEND)) {
      for (String source : sources) {
        try (FileChannel in = FileChannel.open(dir.resolve(source))) {
          long size = in.size();
          for (long done = 0; done < size; ) {
            done += in.transferTo(done, size - done, out);
          }
        }
      }
      out.force(true);
    }
    for (String source : sources) {
      Files.delete(dir.resolve(source));
    }
    return true;
  }

  @Override
  public void rename(String from, String to) throws IOException {
    if (crashAtCommit && to.startsWith("manifest-")) {
      crashed = true;
      throw new IOException("crashed before " + to);
    }
    super.rename(from, to);
  }

  @Override
  public void delete(String name) throws IOException {
    if (!crashed) {
      super.delete(name);
    }
  }
}
