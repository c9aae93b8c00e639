package io.hpf.bench;

import io.hpf.store.AppendableFile;
import io.hpf.store.FileUse;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.StoredFile;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A storage that counts positioned reads and file opens, for "reads per get" figures. */
final class CountingStorage implements Storage {
  private final Storage inner;
  final AtomicLong reads = new AtomicLong();
  final AtomicLong opens = new AtomicLong();

  CountingStorage(Storage inner) {
    this.inner = inner;
  }

  @Override
  public ReadableFile openRead(String name, FileUse use) throws IOException {
    opens.incrementAndGet();
    ReadableFile file = inner.openRead(name, use);
    return new ReadableFile() {
      @Override
      public long length() throws IOException {
        return file.length();
      }

      @Override
      public void readFully(long position, byte[] buffer, int offset, int length)
          throws IOException {
        reads.incrementAndGet();
        file.readFully(position, buffer, offset, length);
      }

      @Override
      public void close() throws IOException {
        file.close();
      }
    };
  }

  @Override
  public AppendableFile create(String name, FileUse use) throws IOException {
    return inner.create(name, use);
  }

  @Override
  public void rename(String from, String to) throws IOException {
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
    inner.delete(name);
  }

  @Override
  public boolean join(String target, List<String> sources) throws IOException {
    return inner.join(target, sources);
  }

  @Override
  public String describe(String name) {
    return inner.describe(name);
  }

  @Override
  public void close() throws IOException {
    inner.close();
  }
}
