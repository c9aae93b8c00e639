package io.hpf.internal.read;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.EntryReader;
import io.hpf.internal.format.PartEntry;
import io.hpf.internal.io.ReadAheadFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;
import java.util.List;

/** Walks of a generation's parts in part order, for compaction, recovery and scans. */
public final class PartWalk {
  private PartWalk() {}

  /**
   * Finds the entry of each row (rows in part order) through one read-ahead window per part: one
   * read per 8 MiB instead of one per entry (on HDFS a read is a DataNode round trip). The part is
   * opened for this walk alone with plain reads: a sequential pass through a mapping would fault
   * every page in. The catalog and the entry header must agree on the name.
   */
  public static void walk(
      Storage storage,
      OpenGeneration generation,
      List<EntryInfo> rows,
      GenerationAccess.PartVisitor visitor)
      throws IOException {
    ReadableFile file = null;
    EntryReader ahead = null;
    int aheadPart = -1;
    try {
      for (EntryInfo row : rows) {
        if (ahead == null || aheadPart != row.partId()) {
          generation.committedLength(row.partId()); // not listed: corrupt, before any open
          if (file != null) {
            file.close();
            file = null;
          }
          file = OpenGeneration.openPart(storage, row.partId(), FileUse.ONCE);
          ahead = generation.entryReader(row.partId(), new ReadAheadFile(file));
          aheadPart = row.partId();
        }
        PartEntry entry = ahead.find(row.offset(), row.entryLength(), row.name(), null);
        if (entry == null) {
          throw new CorruptArchiveException(
              ahead.path(),
              row.offset(),
              "catalog says '" + row.name() + "' is here, the entry header names another");
        }
        visitor.visit(row, ahead, entry);
      }
    } finally {
      if (file != null) {
        file.close();
      }
    }
  }
}
