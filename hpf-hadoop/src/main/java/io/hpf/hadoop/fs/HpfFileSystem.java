package io.hpf.hadoop.fs;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.model.EntryInfo;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathPermissionException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The {@code hpf://} file system: the entries of archives, read-only, as files in a directory tree
 * (an entry {@code 2024/01/a.log} is file {@code a.log} in directory {@code 2024/01}).
 *
 * <p>A file's status comes from the index (one lookup), a directory's listing from the catalogs (a
 * binary search to its first name, then only its own rows: a subdirectory is one row and a jump
 * past its names). Lengths are raw lengths; times and permissions are the entry's; owner, group,
 * replication and block size are its part file's. Registered for the {@code hpf} scheme through
 * {@code META-INF/services}, so any Hadoop client with hpf's jars on its classpath can use it.
 */
public class HpfFileSystem extends FileSystem {
  public static final String SCHEME = "hpf";

  private static final FsPermission DIRECTORY_PERMISSION = new FsPermission((short) 0755);

  private URI uri;
  private Path workingDirectory;
  private OpenArchives archives;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String authority = name.getAuthority() == null ? "" : name.getAuthority();
    this.uri = URI.create(SCHEME + "://" + authority + (authority.isEmpty() ? "/" : ""));
    this.workingDirectory = new Path(SCHEME + "://" + authority + "/");
    this.archives = new OpenArchives(conf);
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  protected int getDefaultPort() {
    return -1;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDirectory;
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDirectory = makeQualified(dir);
  }

  /** What a path names: its archive's snapshot (referenced: the caller releases it) and name. */
  private record Target(ArchivePath path, ArchiveSnapshot snapshot) implements AutoCloseable {
    ArchiveReader reader() {
      return snapshot.reader();
    }

    @Override
    public void close() throws IOException {
      snapshot.release();
    }
  }

  private Target target(Path path) throws IOException {
    ArchivePath where = ArchivePath.parse(makeQualified(path).toUri(), getDefaultUri(getConf()));
    return new Target(where, archives.acquire(where.archive()));
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    Target t = target(path);
    try {
      EntryInfo entry = t.reader().stat(t.path().inner());
      if (entry == null) {
        throw notFound(t, path);
      }
      return new FSDataInputStream(new EntryInputStream(t.snapshot(), entry, statistics));
    } catch (IOException | RuntimeException e) {
      t.close();
      throw e;
    }
  }

  private FileNotFoundException notFound(Target t, Path path) throws IOException {
    if (t.path().inner().isEmpty() || isDirectory(t.reader(), t.path().inner())) {
      return new FileNotFoundException(path + ": is a directory of the archive, not an entry");
    }
    return new FileNotFoundException(path + ": no such entry in " + t.path().archive());
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    Path qualified = makeQualified(path);
    try (Target t = target(qualified)) {
      String inner = t.path().inner();
      if (!inner.isEmpty()) {
        EntryInfo entry = t.reader().stat(inner);
        if (entry != null) {
          return fileStatus(t, entry, qualified);
        }
        if (!isDirectory(t.reader(), inner)) {
          throw new FileNotFoundException(qualified + ": no such entry in " + t.path().archive());
        }
      }
      return directoryStatus(t, qualified);
    }
  }

  private static boolean isDirectory(ArchiveReader reader, String inner) throws IOException {
    return wrapped(() -> reader.list(inner + "/").hasNext());
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    Path qualified = makeQualified(path);
    try (Target t = target(qualified)) {
      String inner = t.path().inner();
      // Children first: a listing is mostly of a directory, and a directory's name is looked up
      // in every segment's index in vain.
      String prefix = inner.isEmpty() ? "" : inner + "/";
      List<FileStatus> children = wrapped(() -> children(t, qualified, prefix));
      if (children.isEmpty() && !inner.isEmpty()) {
        EntryInfo entry = t.reader().stat(inner);
        if (entry != null) {
          return new FileStatus[] {fileStatus(t, entry, qualified)};
        }
        throw new FileNotFoundException(qualified + ": no such entry in " + t.path().archive());
      }
      return children.toArray(new FileStatus[0]);
    }
  }

  /**
   * The entries and subdirectories directly under {@code prefix}: after a subdirectory's first row,
   * the listing jumps past its names (to the first name after {@code sub/}, {@code sub0}: '0'
   * follows '/' in byte order), so a directory of k children costs O(k) catalog seeks, however many
   * names lie below them.
   */
  private List<FileStatus> children(Target t, Path dir, String prefix) throws IOException {
    List<FileStatus> out = new ArrayList<>();
    String from = prefix;
    Iterator<EntryInfo> it = t.reader().list(prefix, from);
    // An entry that is also a directory (d/x beside d/x/y: writers refuse it, older archives may
    // hold it) is listed once, as the directory (FORMAT.md "Entry names"). The directory's names
    // follow the entry with only names like d/x-1 between, so an entry waits for the next name;
    // where that name starts with the entry's, one seek asks whether the directory exists.
    EntryInfo held = null;
    while (it.hasNext()) {
      EntryInfo row = it.next();
      String rest = row.name().substring(prefix.length());
      int slash = rest.indexOf('/');
      String child = slash < 0 ? rest : rest.substring(0, slash);
      if (held != null && !(prefix + child).equals(held.name())) {
        if (!row.name().startsWith(held.name()) || !isDirectory(t.reader(), held.name())) {
          out.add(fileStatus(t, held, new Path(dir, held.name().substring(prefix.length()))));
        }
      }
      held = null;
      if (slash < 0) {
        held = row;
        continue;
      }
      out.add(directoryStatus(t, new Path(dir, child)));
      it = t.reader().list(prefix, prefix + child + "0");
    }
    if (held != null) {
      out.add(fileStatus(t, held, new Path(dir, held.name().substring(prefix.length()))));
    }
    return out;
  }

  private FileStatus fileStatus(Target t, EntryInfo entry, Path path) throws IOException {
    return new EntryStatus(entry, partFiles(t).part(entry.partId()), path);
  }

  private FileStatus directoryStatus(Target t, Path path) throws IOException {
    PartFiles.Facts dir = partFiles(t).directory();
    long time = t.reader().manifest().commitMillis();
    return new FileStatus(
        0, true, 0, 0, time, time, DIRECTORY_PERMISSION, dir.owner(), dir.group(), path);
  }

  private PartFiles partFiles(Target t) {
    return archives.partFiles(t.path().archive());
  }

  /**
   * The hosts of the part-file blocks that hold the entry's bytes, with offsets mapped to the
   * entry's content (HAR's {@code fixBlockLocations}): an engine then runs a task where its entry
   * lies. Compressed content is mapped in proportion.
   */
  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long length)
      throws IOException {
    if (file == null) {
      return null;
    }
    if (start < 0 || length < 0) {
      throw new IllegalArgumentException("invalid start or length: " + start + ", " + length);
    }
    if (file.isDirectory() || file.getLen() < start) {
      return new BlockLocation[0];
    }
    try (Target t = target(file.getPath())) {
      // A status this file system made carries its row; one from elsewhere is looked up.
      EntryInfo entry =
          file instanceof EntryStatus s && s.entry() != null
              ? s.entry()
              : t.reader().stat(t.path().inner());
      if (entry == null) {
        throw notFound(t, file.getPath());
      }
      return EntryBlocks.locate(
          entry,
          partFiles(t).locations(entry.partId(), entry.offset(), entry.entryLength()),
          start,
          length);
    }
  }

  private static <T> T wrapped(IoSupplier<T> body) throws IOException {
    try {
      return body.get();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private interface IoSupplier<T> {
    T get() throws IOException;
  }

  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    if (CommonPathCapabilities.FS_READ_ONLY_CONNECTOR.equalsIgnoreCase(capability)) {
      return true;
    }
    return super.hasPathCapability(path, capability);
  }

  private IOException readOnly(Path path) {
    return new PathPermissionException(
        String.valueOf(path),
        "hpf:// is read-only: change an archive with hpf add, hpf rm or a job's output format");
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    throw readOnly(f);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    throw readOnly(f);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw readOnly(src);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    throw readOnly(f);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    throw readOnly(f);
  }

  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    throw readOnly(f);
  }

  @Override
  public void setOwner(Path p, String username, String groupname) throws IOException {
    throw readOnly(p);
  }

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    throw readOnly(p);
  }

  @Override
  public void setTimes(Path p, long mtime, long atime) throws IOException {
    throw readOnly(p);
  }

  @Override
  public boolean setReplication(Path src, short replication) throws IOException {
    throw readOnly(src);
  }

  @Override
  public void concat(Path trg, Path[] psrcs) throws IOException {
    throw readOnly(trg);
  }

  @Override
  public void close() throws IOException {
    try {
      if (archives != null) {
        archives.close();
      }
    } finally {
      super.close();
    }
  }
}
