package io.hpf.store;

import java.io.IOException;
import java.util.List;

/**
 * A storage that passes every call to another; a subclass overrides what it changes (counting
 * reads, injecting faults in tests). Thread-safe when the inner storage is and the subclass keeps
 * it so.
 */
public abstract class ForwardingStorage implements Storage {
  private final Storage inner;

  protected ForwardingStorage(Storage inner) {
    this.inner = inner;
  }

  /** The storage calls go to. */
  protected final Storage inner() {
    return inner;
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
  public boolean exists(String name) throws IOException {
    return inner.exists(name);
  }

  @Override
  public Object version(String name) throws IOException {
    return inner.version(name);
  }

  @Override
  public boolean sameFile(Object version, Object other) {
    return inner.sameFile(version, other);
  }

  @Override
  public boolean statCheaperThanList() {
    return inner.statCheaperThanList();
  }

  @Override
  public boolean prefersFewFiles() {
    return inner.prefersFewFiles();
  }

  @Override
  public boolean readsAreRemote() {
    return inner.readsAreRemote();
  }

  // No sharingKey: a storage that changes what calls do must not share what another opened.

  @Override
  public void delete(String name) throws IOException {
    inner.delete(name);
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
