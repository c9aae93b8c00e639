package io.hpf.testing;

import io.hpf.store.AppendableFile;
import io.hpf.store.FileUse;
import io.hpf.store.LocalStorage;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.StoredFile;
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
public final class JoiningStorage implements Storage {
  private final LocalStorage inner;
  private volatile boolean crashAtCommit;
  private volatile boolean crashed;

  public JoiningStorage(LocalStorage inner) {
    this.inner = inner;
  }

  /** The next manifest commit fails, and the writer's clean-up after it does nothing. */
  public void crashAtNextCommit() {
    crashAtCommit = true;
  }

  @Override
  public boolean join(String target, List<String> sources) throws IOException {
    Path dir = inner.directory();
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
  public ReadableFile openRead(String name, FileUse use) throws IOException {
    return inner.openRead(name, use);
  }

  @Override
  public AppendableFile create(String name, FileUse use) throws IOException {
    return inner.create(name, use);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    if (crashAtCommit && to.startsWith("manifest-")) {
      crashed = true;
      throw new IOException("crashed before " + to);
    }
    inner.rename(from, to);
  }

  @Override
  public void moveIn(String subdirectory, String name, String to) throws IOException {
    inner.moveIn(subdirectory, name, to);
  }

  @Override
  public List<StoredFile> list() throws IOException {
    return inner.list();
  }

  @Override
  public void delete(String name) throws IOException {
    if (!crashed) {
      inner.delete(name);
    }
  }

  @Override
  public String describe(String name) {
    return inner.describe(name);
  }

  @Override
  public void close() throws IOException {
    inner.close();
  }

  @Override
  public String toString() {
    return inner.toString();
  }
}
