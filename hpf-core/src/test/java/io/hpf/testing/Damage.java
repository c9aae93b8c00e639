package io.hpf.testing;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.FileNames;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/** Damage done to an archive on local disk for tests: a byte flipped where a test says. */
public final class Damage {
  private Damage() {}

  /** Flips (xor 0x5a) the byte at {@code at} of part file {@code partId} of {@code archive}. */
  public static void flipByte(Path archive, int partId, long at) throws IOException {
    try (RandomAccessFile part =
        new RandomAccessFile(archive.resolve(FileNames.partFileName(partId)).toFile(), "rw")) {
      part.seek(at);
      int b = part.read();
      part.seek(at);
      part.write(b ^ 0x5a);
    }
  }

  /** Where the stored content of an entry on its own (not a group's member) starts in its part. */
  public static long contentOffset(EntryInfo row) {
    return row.offset() + row.entryLength() - row.storedLength() - 4;
  }

  /** Where the entry's trailer (the CRC32C of all its content) is in its part. */
  public static long trailerOffset(EntryInfo row) {
    return row.offset() + row.entryLength() - 4;
  }
}
