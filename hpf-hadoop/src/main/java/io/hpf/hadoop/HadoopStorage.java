package io.hpf.hadoop;

import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * {@link Storage} over any Hadoop {@link FileSystem} (HDFS, S3A, ABFS, ...), like parquet-java's
 * {@code HadoopInputFile}. Reads are positional ({@code pread}): one open stream serves every
 * reader thread, and once a file is open a read asks the NameNode nothing (the stream has the block
 * locations). Writes go through {@code hflush}/{@code hsync}; commits through {@code rename}, which
 * is atomic on HDFS (on object stores it is a copy: FORMAT.md "Commit protocol" says what a reader
 * may then see).
 */
public final class HadoopStorage implements Storage {
  private static final String LAZY_PERSIST = "LAZY_PERSIST";

  /** Hadoop 3.4.2's create option for a create that must not replace (S3A: If-None-Match). */
  private static final String CONDITIONAL_CREATE = "fs.option.create.conditional.overwrite";

  private final FileSystem fs;
  private final Path directory;
  private final HadoopStorageOptions options;
  private final boolean ownsFileSystem;

  /** The directory's own storage policy before LAZY_PERSIST was set on it, once it was. */
  private BlockStoragePolicySpi policyBeforeLazy;

  private boolean lazyPolicySet;

  /** Bytes of index-file pages this storage may still keep in memory (PageCachedFile). */
  private final java.util.concurrent.atomic.AtomicLong indexCacheBudget =
      new java.util.concurrent.atomic.AtomicLong(INDEX_CACHE_BYTES);

  /** Whether index files take their pages from the process's {@link SharedIndexPages}. */
  private volatile boolean sharedIndexPages = true;

  /**
   * The HDFS identity of each file of the last listing, by name: an index file listed there can be
   * served from the process's shared pages without being opened.
   */
  private volatile Map<String, SharedIndexPages.FileKey> listedIndexKeys = Map.of();

  /**
   * Keeps no index pages in memory from now on: every lookup reads its record from a DataNode (the
   * HPF paper's "without caching" setting, for benchmarks). Returns this storage.
   */
  public HadoopStorage withoutIndexPageCache() {
    indexCacheBudget.set(0);
    sharedIndexPages = false;
    return this;
  }

  /** 256 MiB of index pages: the records of about 8 million entries. */
  static final long INDEX_CACHE_BYTES = 256L << 20;

  private HadoopStorage(
      FileSystem fs, Path directory, HadoopStorageOptions options, boolean ownsFileSystem) {
    this.fs = fs;
    this.directory = fs.makeQualified(directory);
    this.options = options;
    this.ownsFileSystem = ownsFileSystem;
  }

  /**
   * Opens an existing archive directory. {@code ownsFileSystem}: close {@code fs} with this storage
   * (true for an instance from {@code FileSystem.newInstance}, false for the shared cached one).
   */
  public static HadoopStorage open(
      FileSystem fs, Path directory, HadoopStorageOptions options, boolean ownsFileSystem)
      throws IOException {
    FileStatus status;
    try {
      status = fs.getFileStatus(directory);
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException(fs.makeQualified(directory) + ": no such archive directory");
    }
    if (!status.isDirectory()) {
      throw new FileNotFoundException(
          fs.makeQualified(directory) + ": not an archive (a file, not a directory)");
    }
    return new HadoopStorage(fs, directory, options, ownsFileSystem);
  }

  /**
   * Opens an existing archive directory for reading, asking the NameNode nothing yet: a directory
   * that is missing, or is a file, is reported by the first listing, which is a reader's first step
   * (a fresh reader's open then costs that one call). Writers use {@link #open}, which checks at
   * once: HDFS would make the missing directories of a file a writer creates.
   */
  public static HadoopStorage openToRead(
      FileSystem fs, Path directory, HadoopStorageOptions options, boolean ownsFileSystem) {
    return new HadoopStorage(fs, directory, options, ownsFileSystem);
  }

  /** Creates the directory (and parents) if needed and opens it. */
  public static HadoopStorage createDirectories(
      FileSystem fs, Path directory, HadoopStorageOptions options, boolean ownsFileSystem)
      throws IOException {
    if (!fs.mkdirs(directory)) {
      throw new IOException(fs.makeQualified(directory) + ": cannot create the directory");
    }
    return new HadoopStorage(fs, directory, options, ownsFileSystem);
  }

  public FileSystem fileSystem() {
    return fs;
  }

  public Path directory() {
    return directory;
  }

  public HadoopStorageOptions options() {
    return options;
  }

  private Path resolve(String name) {
    if (name.isEmpty() || name.indexOf('/') >= 0 || name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException("not a plain file name: '" + name + "'");
    }
    return new Path(directory, name);
  }

  /** How long to wait for HDFS to recover the lease of a file whose writer died. */
  private static final long LEASE_RECOVERY_MILLIS = 60_000;

  /**
   * Opens a file whose last block HDFS cannot size yet: its writer died with the file open (a part
   * file of a writer killed mid-commit, which recovery then committed), and the DataNodes have not
   * reported the block. Only files no live writer holds are ever opened here (committed parts;
   * orphans under the writer lock), so recovering the dead client's lease is safe; once HDFS closes
   * the file, its length is final.
   */
  private FSDataInputStream openAfterLeaseRecovery(Path path, String name, IOException cause)
      throws IOException {
    if (!(fs instanceof DistributedFileSystem dfs)) {
      throw cause;
    }
    long deadline = System.currentTimeMillis() + LEASE_RECOVERY_MILLIS;
    boolean closed = dfs.recoverLease(path);
    while (!closed && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(describe(name) + ": interrupted recovering its lease");
      }
      closed = dfs.isFileClosed(path);
    }
    if (!closed) {
      throw new IOException(
          describe(name)
              + ": its writer died with it open and HDFS did not recover it within "
              + LEASE_RECOVERY_MILLIS / 1000
              + " s",
          cause);
    }
    return fs.open(path);
  }

  @Override
  public ReadableFile openRead(String name, FileUse use) throws IOException {
    SharedIndexPages.FileKey key = use == FileUse.INDEX ? listedIndexKeys.get(name) : null;
    if (key != null && sharedIndexPages) {
      // Immutable and listed whole: opened only if a page it needs is not in the process already.
      return new PageCachedFile(() -> openListed(name, key), key.length(), indexCacheBudget, key);
    }
    ReadableFile file = open(name);
    // Index files keep their pages: a warm lookup then asks no DataNode for them.
    try {
      return use == FileUse.INDEX ? new PageCachedFile(file, indexCacheBudget) : file;
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
  }

  /** Opens a file as it was listed, or fails if it is no longer that length. */
  private ReadableFile openListed(String name, SharedIndexPages.FileKey key) throws IOException {
    ReadableFile file = open(name);
    if (file.length() != key.length()) {
      file.close();
      throw new IOException(
          describe(name) + ": " + file.length() + " bytes, " + key.length() + " when listed");
    }
    return file;
  }

  /** This storage no longer knows a file it changes (created, deleted or renamed) as listed. */
  private void forget(String name) {
    Map<String, SharedIndexPages.FileKey> keys = listedIndexKeys;
    if (keys.containsKey(name)) {
      Map<String, SharedIndexPages.FileKey> rest = new HashMap<>(keys);
      rest.remove(name);
      listedIndexKeys = rest;
    }
  }

  private ReadableFile open(String name) throws IOException {
    Path path = resolve(name);
    FSDataInputStream in;
    try {
      in = fs.open(path);
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException(describe(name) + ": no such file");
    } catch (org.apache.hadoop.hdfs.CannotObtainBlockLengthException e) {
      in = openAfterLeaseRecovery(path, name, e);
    }
    try {
      // A file still being written (a crashed writer's part) shows only its complete blocks in a
      // listing; HDFS's visible length also counts the flushed bytes of the last block.
      long length =
          in instanceof HdfsDataInputStream hdfs
              ? hdfs.getVisibleLength()
              : fs.getFileStatus(path).getLen();
      return new HadoopReadableFile(describe(name), in, length);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  @Override
  public AppendableFile create(String name, FileUse use) throws IOException {
    Path path = resolve(name);
    forget(name);
    boolean part = use == FileUse.CONTENT;
    long blockSize = part ? options.partBlockSize() : options.indexBlockSize();
    if (blockSize == 0) {
      blockSize = fs.getDefaultBlockSize(path);
    }
    short replication =
        options.replication() == 0 ? fs.getDefaultReplication(path) : options.replication();
    if (options.lazyPersist()) {
      setLazyPersistPolicy();
    }
    FSDataOutputStream out;
    try {
      // Never over an existing file: HDFS refuses at once; on S3A the PUT carries If-None-Match
      // (the store refuses it at close, atomically: two writers cannot both take the lock).
      var builder =
          fs.createFile(path)
              .overwrite(false)
              .permission(
                  FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(fs.getConf())))
              .bufferSize(fs.getConf().getInt("io.file.buffer.size", 4096))
              .replication(replication)
              .blockSize(blockSize);
      builder.opt(CONDITIONAL_CREATE, true);
      out = builder.build();
    } catch (FileAlreadyExistsException e) {
      // The core relies on the java.nio type to tell "exists" apart from other failures.
      throw new java.nio.file.FileAlreadyExistsException(describe(name));
    }
    return HadoopAppendableFile.of(describe(name), out, blockSize, () -> fs.exists(path));
  }

  @Override
  public void rename(String from, String to) throws IOException {
    Path source = resolve(from);
    Path target = resolve(to);
    forget(from);
    forget(to);
    if (fs.rename(source, target)) {
      return;
    }
    // Hadoop's rename answers false rather than saying why.
    if (fs.exists(target)) {
      throw new java.nio.file.FileAlreadyExistsException(describe(to));
    }
    if (!fs.exists(source)) {
      throw new FileNotFoundException(describe(from) + ": no such file to rename");
    }
    throw new IOException("cannot rename " + describe(from) + " to " + describe(to));
  }

  @Override
  public void moveIn(String subdirectory, String name, String to) throws IOException {
    resolve(name); // a plain name
    Path source = new Path(new Path(directory, Storage.checkRelative(subdirectory)), name);
    Path target = resolve(to);
    forget(to);
    if (fs.rename(source, target)) {
      return;
    }
    if (fs.exists(target)) {
      throw new java.nio.file.FileAlreadyExistsException(describe(to));
    }
    throw new FileNotFoundException(source + ": cannot move it into " + directory);
  }

  @Override
  public List<StoredFile> list() throws IOException {
    List<StoredFile> files = new ArrayList<>();
    Map<String, SharedIndexPages.FileKey> keys = new HashMap<>();
    String fileSystem = fs.getUri().toString();
    FileStatus[] listed;
    try {
      listed = fs.listStatus(directory);
    } catch (FileNotFoundException e) {
      throw new FileNotFoundException(directory + ": no such archive directory");
    }
    if (listed.length == 1 && listed[0].isFile() && listed[0].getPath().equals(directory)) {
      throw new FileNotFoundException(directory + ": not an archive (a file, not a directory)");
    }
    for (FileStatus status : listed) {
      if (status.isFile()) {
        String name = status.getPath().getName();
        // An HDFS file's inode id is never given to another file: its version, and with its
        // length the key of its pages in the process's shared index pages.
        Long inode = status instanceof HdfsFileStatus hdfs ? hdfs.getFileId() : null;
        files.add(new StoredFile(name, status.getLen(), inode));
        if (inode != null) {
          keys.put(name, new SharedIndexPages.FileKey(fileSystem, inode, status.getLen()));
        }
      }
    }
    listedIndexKeys = keys;
    return files;
  }

  /** Every file and block is an object of the NameNode (or of a store that counts files). */
  @Override
  public boolean prefersFewFiles() {
    return true;
  }

  /**
   * Every Hadoop file system but the local one ({@code HadoopArchives} opens that with java.nio).
   */
  @Override
  public boolean readsAreRemote() {
    return !"file".equals(fs.getUri().getScheme());
  }

  @Override
  public boolean exists(String name) throws IOException {
    return fs.exists(resolve(name));
  }

  @Override
  public Object version(String name) throws IOException {
    try {
      return fs.getFileStatus(resolve(name)) instanceof HdfsFileStatus hdfs
          ? hdfs.getFileId()
          : null;
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  /**
   * Readers share on HDFS only, where a file's version is its inode id, and only through a file
   * system this storage does not own (the process's cached one): a shared generation outlives the
   * storage that opened it. The file system instance is part of the key, so after it is closed and
   * replaced in Hadoop's cache, readers open anew through the new one.
   */
  @Override
  public String sharingKey() {
    if (ownsFileSystem || !(fs instanceof DistributedFileSystem)) {
      return null;
    }
    return "hdfs "
        + FileSystemIds.of(fs)
        + " "
        + directory
        + (sharedIndexPages ? "" : " (no index pages kept)")
        + " "
        + options;
  }

  @Override
  public void delete(String name) throws IOException {
    forget(name);
    fs.delete(resolve(name), false);
  }

  @Override
  public String describe(String name) {
    return new Path(directory, name).toString();
  }

  /**
   * LAZY_PERSIST is set on the archive directory, not given to each file: a file created with the
   * LAZY_PERSIST flag keeps that policy for good, while files that inherit it from their directory
   * follow the directory when it is reset.
   */
  private synchronized void setLazyPersistPolicy() throws IOException {
    if (!lazyPolicySet) {
      policyBeforeLazy = fs.getStoragePolicy(directory);
      fs.setStoragePolicy(directory, LAZY_PERSIST);
      lazyPolicySet = true;
    }
  }

  /**
   * Gives the archive directory back the storage policy it had before this storage wrote with
   * LAZY_PERSIST, so its files are ordinary files again (replicated to disk, movable by the mover).
   * Called once a writer is done; does nothing if nothing was written lazily.
   */
  public synchronized void resetLazyPersist() throws IOException {
    if (lazyPolicySet) {
      Path parent = directory.getParent();
      if (parent != null
          && policyBeforeLazy != null
          && policyBeforeLazy.getName().equals(fs.getStoragePolicy(parent).getName())) {
        fs.unsetStoragePolicy(directory); // it had inherited its policy: inherit again
      } else if (policyBeforeLazy != null) {
        fs.setStoragePolicy(directory, policyBeforeLazy.getName());
      }
      lazyPolicySet = false;
    }
  }

  /** Gives back the directory's storage policy if LAZY_PERSIST was set, then lets go. */
  @Override
  public void close() throws IOException {
    try {
      resetLazyPersist();
    } finally {
      if (ownsFileSystem) {
        fs.close();
      }
    }
  }

  @Override
  public String toString() {
    return directory.toString();
  }
}
