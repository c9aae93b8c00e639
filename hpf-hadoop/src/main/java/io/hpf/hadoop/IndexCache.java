package io.hpf.hadoop;

import io.hpf.archive.ArchiveFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;

/**
 * HDFS centralized cache directives for an archive's index files (segment files; the bucket files,
 * catalogs and dictionaries of archives written before version 4; manifests), as the HPF paper
 * does: DataNodes keep those blocks in memory, so a cold lookup reads its index from RAM. Part
 * files are never cached. After a compaction the index files change; {@link #add} again adds the
 * new ones and drops directives of files that are gone.
 */
public final class IndexCache {
  /** One directive: its id, path, and bytes cached of bytes needed (as DataNodes report). */
  public record Directive(long id, String path, long bytesNeeded, long bytesCached) {}

  private final DistributedFileSystem fs;
  private final Path archive;

  public IndexCache(FileSystem fs, Path archive) {
    if (!(fs instanceof DistributedFileSystem dfs)) {
      throw new IllegalArgumentException(
          fs.getUri() + ": centralized caching needs HDFS (hdfs://), not " + fs.getScheme());
    }
    this.fs = dfs;
    this.archive = fs.makeQualified(archive);
  }

  /**
   * Makes sure every index file of the archive has a directive in {@code pool} (created if missing)
   * and none is left for a file that is gone. Returns the directives added.
   */
  public int add(String pool) throws IOException {
    ensurePool(pool);
    Set<String> wanted = new HashSet<>();
    for (FileStatus status : fs.listStatus(archive)) {
      if (status.isFile() && ArchiveFormat.isIndexFile(status.getPath().getName())) {
        wanted.add(status.getPath().toUri().getPath());
      }
    }
    for (Directive d : list()) {
      if (!wanted.remove(d.path())) {
        fs.removeCacheDirective(d.id());
      }
    }
    for (String path : wanted) {
      fs.addCacheDirective(
          new CacheDirectiveInfo.Builder().setPath(new Path(path)).setPool(pool).build());
    }
    return wanted.size();
  }

  /** Removes every directive on the archive's files; returns how many. */
  public int remove() throws IOException {
    List<Directive> directives = list();
    for (Directive d : directives) {
      fs.removeCacheDirective(d.id());
    }
    return directives.size();
  }

  /** The directives on the archive's files. */
  public List<Directive> list() throws IOException {
    String prefix = archive.toUri().getPath() + "/";
    List<Directive> result = new ArrayList<>();
    RemoteIterator<CacheDirectiveEntry> it =
        fs.listCacheDirectives(new CacheDirectiveInfo.Builder().build());
    while (it.hasNext()) {
      CacheDirectiveEntry entry = it.next();
      String path = entry.getInfo().getPath().toUri().getPath();
      if (path.startsWith(prefix)) {
        result.add(
            new Directive(
                entry.getInfo().getId(),
                path,
                entry.getStats().getBytesNeeded(),
                entry.getStats().getBytesCached()));
      }
    }
    return result;
  }

  private void ensurePool(String pool) throws IOException {
    RemoteIterator<CachePoolEntry> pools = fs.listCachePools();
    while (pools.hasNext()) {
      if (pools.next().getInfo().getPoolName().equals(pool)) {
        return;
      }
    }
    fs.addCachePool(new CachePoolInfo(pool));
  }
}
