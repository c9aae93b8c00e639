package io.hpf.hadoop.fs;

import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.LiveArchive;
import io.hpf.hadoop.EngineKeys;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.store.Storage;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The archives an {@code hpf://} file system has open: one reader per archive, shared by every call
 * and stream, looked at again for a newer generation at most once per refresh interval (a look is
 * one directory listing), and then refreshed sharing what did not change.
 */
final class OpenArchives implements Closeable {
  /** How often (ms) a call may look for a newer generation of an open archive. */
  static final String REFRESH_INTERVAL_MS = EngineKeys.REFRESH_INTERVAL_MS;

  static final long DEFAULT_REFRESH_INTERVAL_MS = 1000;

  private final Configuration conf;
  private final long refreshNanos;
  private final long localBlockSize;
  private final Map<URI, Open> open = new HashMap<>();

  /** An archive's storage and its generations as served. */
  private static final class Open {
    final Storage storage;
    final PartFiles partFiles;
    final LiveArchive live;
    long checkedNanos;

    Open(Storage storage, PartFiles partFiles, LiveArchive live, long checkedNanos) {
      this.storage = storage;
      this.partFiles = partFiles;
      this.live = live;
      this.checkedNanos = checkedNanos;
    }
  }

  OpenArchives(Configuration conf) {
    this.conf = conf;
    this.refreshNanos = conf.getLong(REFRESH_INTERVAL_MS, DEFAULT_REFRESH_INTERVAL_MS) * 1_000_000L;
    this.localBlockSize = conf.getLong("fs.local.block.size", 32L << 20);
  }

  /**
   * The current snapshot of an archive, with a reference the caller gives back with {@link
   * ArchiveSnapshot#release}.
   */
  synchronized ArchiveSnapshot acquire(URI archive) throws IOException {
    long now = System.nanoTime();
    Open o = open.get(archive);
    if (o == null) {
      Storage storage = HadoopArchives.open(archive, conf);
      try {
        LiveArchive live = LiveArchive.open(archive.toString(), storage);
        o = new Open(storage, new PartFiles(storage, localBlockSize), live, now);
      } catch (IOException | RuntimeException e) {
        storage.close();
        throw e;
      }
      open.put(archive, o);
    } else if (now - o.checkedNanos >= refreshNanos) {
      o.live.refresh();
      o.checkedNanos = now;
    }
    return o.live.acquire();
  }

  /** The part files of an archive opened by {@link #acquire}. */
  synchronized PartFiles partFiles(URI archive) {
    return open.get(archive).partFiles;
  }

  @Override
  public synchronized void close() throws IOException {
    List<IOException> failures = new ArrayList<>();
    for (Open o : open.values()) {
      try {
        o.live.close();
        o.storage.close();
      } catch (IOException e) {
        failures.add(e);
      }
    }
    open.clear();
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }
}
