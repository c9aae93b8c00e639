package io.hpf.testing;

import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An archive's files held in memory, for reading only: what a fuzzer changes thousands of times a
 * second without touching a disk. Writing, renaming or deleting is an {@link IOException}.
 */
public final class MemoryArchive implements Storage {
  private final Map<String, byte[]> files;

  /** Over {@code files} (name to bytes), which the caller keeps and may change between opens. */
  public MemoryArchive(Map<String, byte[]> files) {
    this.files = new TreeMap<>(files);
  }

  @Override
  public ReadableFile openRead(String name, FileUse use) throws IOException {
    byte[] bytes = files.get(name);
    if (bytes == null) {
      throw new FileNotFoundException(describe(name) + ": no such file");
    }
    return new CountingMemoryFile(bytes);
  }

  @Override
  public List<StoredFile> list() {
    List<StoredFile> out = new ArrayList<>();
    files.forEach((name, bytes) -> out.add(new StoredFile(name, bytes.length)));
    return out;
  }

  @Override
  public AppendableFile create(String name, FileUse use) throws IOException {
    throw readOnly(name);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    throw readOnly(from);
  }

  @Override
  public void moveIn(String subdirectory, String name, String to) throws IOException {
    throw readOnly(name);
  }

  @Override
  public void delete(String name) throws IOException {
    throw readOnly(name);
  }

  @Override
  public String describe(String name) {
    return "memory:" + name;
  }

  @Override
  public void close() {}

  private IOException readOnly(String name) {
    return new IOException(describe(name) + ": a memory archive is read only");
  }
}
