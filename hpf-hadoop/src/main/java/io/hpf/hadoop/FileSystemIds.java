package io.hpf.hadoop;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileSystem;

/**
 * A number for each file system instance of the process, never given to another: Hadoop's {@code
 * FileSystem} has no identity of its own that survives it being closed and a new one made for the
 * same URI.
 */
final class FileSystemIds {
  private static final Map<FileSystem, Long> IDS = new WeakHashMap<>();
  private static final AtomicLong NEXT = new AtomicLong();

  private FileSystemIds() {}

  static synchronized long of(FileSystem fs) {
    return IDS.computeIfAbsent(fs, f -> NEXT.incrementAndGet());
  }
}
