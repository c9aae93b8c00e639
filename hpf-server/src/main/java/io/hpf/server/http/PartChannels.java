package io.hpf.server.http;

import io.netty.channel.DefaultFileRegion;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open part files for zero-copy sends, shared by all requests: opening a file per request costs
 * more than copying a 32 KB entry. A bounded set, least recently used closed first; each open file
 * is counted by the regions being sent from it, so a file leaves the set at any time and closes
 * when its last send ends. Part files are immutable once committed; a file replaced by compaction
 * has another name.
 */
final class PartChannels {
  private final int capacity;
  private final LinkedHashMap<Path, Shared> open = new LinkedHashMap<>(16, 0.75f, true);

  /** An open file and its users: the set itself, plus one per region being sent. */
  private static final class Shared {
    final FileChannel channel;
    final AtomicInteger references = new AtomicInteger(1);

    Shared(FileChannel channel) {
      this.channel = channel;
    }

    boolean retain() {
      while (true) {
        int n = references.get();
        if (n == 0) {
          return false;
        }
        if (references.compareAndSet(n, n + 1)) {
          return true;
        }
      }
    }

    void release() {
      if (references.decrementAndGet() == 0) {
        try {
          channel.close();
        } catch (IOException e) {
          // nothing was written through it: nothing is lost
        }
      }
    }
  }

  PartChannels(int capacity) {
    this.capacity = capacity;
  }

  /** A region of a part file to send with sendfile; the file stays open until it is sent. */
  DefaultFileRegion region(Path partFile, long position, long count) throws IOException {
    Shared shared = acquire(partFile);
    return new DefaultFileRegion(shared.channel, position, count) {
      @Override
      protected void deallocate() {
        shared.release(); // not the file's close: other sends share it
      }
    };
  }

  private Shared acquire(Path partFile) throws IOException {
    synchronized (open) {
      Shared s = open.get(partFile);
      if (s != null && s.retain()) {
        return s;
      }
    }
    Shared fresh = new Shared(FileChannel.open(partFile, StandardOpenOption.READ));
    fresh.retain();
    synchronized (open) {
      Shared raced = open.putIfAbsent(partFile, fresh);
      if (raced != null && raced.retain()) {
        fresh.release();
        fresh.release();
        return raced;
      }
      if (raced != null) {
        open.put(partFile, fresh);
      }
      if (open.size() > capacity) {
        Iterator<Map.Entry<Path, Shared>> eldest = open.entrySet().iterator();
        Shared evicted = eldest.next().getValue();
        eldest.remove();
        evicted.release();
      }
    }
    return fresh;
  }

  /** Closes the files no send is using; the others close when their sends end. */
  void close() {
    synchronized (open) {
      open.values().forEach(Shared::release);
      open.clear();
    }
  }
}
