package io.hpf.mount;

import io.hpf.archive.EntryInfo;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jnr.ffi.Struct;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/**
 * When the kernel may keep what it cached of a file across opens: only when the name is opened on
 * the very entry it was opened on last (same part, offset and member: the same bytes, as parts are
 * only appended to). Otherwise — the first open, or a commit replaced the name — the kernel drops
 * the file's pages, so a replaced file is never read from the old entry's pages. Warm reads of
 * unchanged files are then the page cache's, as on a local file system.
 */
final class PageCacheRule {
  /** Names remembered at most; past it the memory starts over (each name drops its pages once). */
  private static final int REMEMBERED = 200_000;

  /**
   * Offset of libfuse 2's bit fields in {@code struct fuse_file_info} on 64-bit Linux (after {@code
   * flags}, {@code fh_old} and {@code writepage}; {@code fh} follows at 24), which jnr-fuse maps as
   * padding: bit 1 is {@code keep_cache}.
   */
  private static final int BIT_FIELDS_OFFSET = 20;

  private static final int KEEP_CACHE = 1 << 1;

  /** Where an entry's bytes are. */
  private record Place(int partId, long offset, int member, long rawLength) {}

  private final Map<String, Place> lastOpened = new ConcurrentHashMap<>();

  /** Records that {@code path} is opened on {@code row}; true if it was last on the same entry. */
  boolean unchangedSinceLastOpen(String path, EntryInfo row) {
    Place place = new Place(row.partId(), row.offset(), row.member(), row.rawLength());
    if (lastOpened.size() >= REMEMBERED) {
      lastOpened.clear();
    }
    return place.equals(lastOpened.put(path, place));
  }

  /** Tells the kernel to keep the file's cached pages on this open. */
  static void keepCache(FuseFileInfo fi) {
    jnr.ffi.Pointer memory = Struct.getMemory(fi);
    memory.putInt(BIT_FIELDS_OFFSET, memory.getInt(BIT_FIELDS_OFFSET) | KEEP_CACHE);
  }
}
