package io.hpf.write;

import io.hpf.format.EntryInfo;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins the part files one commit wrote (one per writer thread) into as few as the part size
 * allows, where the storage joins files as a metadata operation (HDFS {@code concat}): every file
 * is a NameNode object, and its blocks more. A joined part keeps the file headers of the parts
 * joined to it where they start (FORMAT.md "Part file"); the rows of their entries move by the
 * length of what precedes them. Where the storage cannot join, the parts stay as they are.
 */
public final class PartJoiner {
  /** A part of the commit: its id, committed length and the rows of its entries. */
  public record Part(int partId, long committedLength, List<EntryInfo> rows) {}

  private PartJoiner() {}

  /**
   * Joins runs of {@code parts} (finished, in order) of at most {@code maxPartBytes} each.
   * REQUIRES: nothing has been committed of them.
   */
  public static List<Part> join(Storage storage, List<PartWriter> parts, long maxPartBytes)
      throws IOException {
    List<Part> out = new ArrayList<>();
    List<PartWriter> run = new ArrayList<>();
    long runBytes = 0;
    boolean joins = true;
    for (PartWriter part : parts) {
      if (!part.endsAtCommittedLength()) {
        out.add(alone(part)); // an uncommitted tail must stay at the end of its file
        continue;
      }
      if (!run.isEmpty() && runBytes + part.committedLength() > maxPartBytes) {
        joins = joinRun(storage, run, joins, out);
        run.clear();
        runBytes = 0;
      }
      run.add(part);
      runBytes += part.committedLength();
    }
    if (!run.isEmpty()) {
      joinRun(storage, run, joins, out);
    }
    return out;
  }

  /** Adds the run to {@code out}, joined if the storage joins; returns whether it does. */
  private static boolean joinRun(
      Storage storage, List<PartWriter> run, boolean joins, List<Part> out) throws IOException {
    List<String> sources = new ArrayList<>();
    for (PartWriter part : run.subList(1, run.size())) {
      sources.add(part.fileName());
    }
    PartWriter first = run.get(0);
    boolean joined = !sources.isEmpty() && joins && storage.join(first.fileName(), sources);
    if (!joined) {
      for (PartWriter part : run) {
        out.add(alone(part));
      }
      return joins && sources.isEmpty(); // a storage that did not join once never will
    }
    List<EntryInfo> rows = new ArrayList<>();
    long base = 0;
    for (PartWriter part : run) {
      for (EntryInfo row : part.rows()) {
        rows.add(row.movedTo(first.partId(), base + row.offset()));
      }
      base += part.committedLength();
    }
    out.add(new Part(first.partId(), base, rows));
    return true;
  }

  private static Part alone(PartWriter part) {
    return new Part(part.partId(), part.committedLength(), part.rows());
  }
}
