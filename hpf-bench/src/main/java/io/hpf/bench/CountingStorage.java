package io.hpf.bench;

import io.hpf.store.ForwardingStorage;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/** A storage that counts positioned reads and file opens, for "reads per get" figures. */
final class CountingStorage extends ForwardingStorage {
  final AtomicLong reads = new AtomicLong();
  final AtomicLong opens = new AtomicLong();

  CountingStorage(Storage inner) {
    super(inner);
  }

  @Override
  public ReadableFile openRead(String name, FileUse use) throws IOException {
    opens.incrementAndGet();
    ReadableFile file = inner().openRead(name, use);
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
}
