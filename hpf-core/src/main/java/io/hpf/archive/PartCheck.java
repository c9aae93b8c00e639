package io.hpf.archive;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.EntryHeader;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.PartEntry;
import io.hpf.internal.format.PartScanner;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link ArchiveVerifier} checks of an archive's part files: each walked entry by entry to its
 * committed length, each entry's checksums, and each against the catalog rows that place it there.
 * Reports to the verifier's {@link VerifyFindings}.
 */
final class PartCheck {
  private final Storage storage;
  private final VerifyFindings findings;

  PartCheck(Storage storage, VerifyFindings findings) {
    this.storage = storage;
    this.findings = findings;
  }

  /**
   * Walks a part entry by entry from its header to its committed length and checks each entry by
   * its place: header, name and content checksum, live or not (replaced and deleted entries stay
   * until a reclaiming compaction), whatever its size. The entries must follow each other exactly,
   * and every row must find its entry where it says, as the catalog describes it ({@code placed}
   * gives the part's rows in place order as the walk reaches them). After damage that hides where
   * the next entry starts, the walk goes on at the next row's place.
   */
  void checkPart(ArchiveReader reader, Generation.Part part, PlacedRows placed, long total)
      throws IOException {
    int partId = part.partId();
    String name = FileNames.partFileName(partId);
    String path = storage.describe(name);
    java.util.function.LongConsumer noEntryThere =
        offset ->
            findings.problem(
                name, offset, "a live entry is indexed here, but no entry starts at this offset");
    try (ReadableFile file = storage.openRead(name, FileUse.ONCE)) {
      byte[] header = file.readFully(0, FormatConstants.FILE_HEADER_BYTES);
      FileFraming.checkHeader(path, header, 0, header.length, FormatConstants.KIND_PART);
      long committed = part.committedLength();
      PartScanner scanner =
          new PartScanner(
              file,
              path,
              FormatConstants.FILE_HEADER_BYTES,
              committed,
              committed,
              reader::dictionary);
      long position = FormatConstants.FILE_HEADER_BYTES;
      List<PlacedRows.Row> group = null; // the rows at the group being walked, until its end
      while (true) {
        PartEntry entry;
        try {
          entry = scanner.next();
        } catch (CorruptArchiveException e) {
          findings.problem(e);
          placed.skipBefore(partId, position + 1, offset -> {}); // reported above
          PlacedRows.Row resume = placed.peek(partId);
          if (resume == null) {
            break;
          }
          position = resume.info().offset();
          scanner.seek(position);
          group = null;
          continue;
        }
        if (entry == null) {
          break;
        }
        position = entry.end();
        placed.skipBefore(partId, entry.offset(), noEntryThere);
        List<PlacedRows.Row> rows;
        if (!entry.inGroup()) {
          rows = placed.takeAt(partId, entry.offset());
        } else {
          if (entry.member() == 0 || group == null) {
            group = new ArrayList<>(placed.takeAt(partId, entry.offset()));
          }
          rows = new ArrayList<>(1);
          List<PlacedRows.Row> mine = rows;
          group.removeIf(r -> r.info().name().equals(entry.header().name()) && mine.add(r));
        }
        checkEntry(name, scanner, entry, rows.isEmpty() ? null : rows, total);
        if (entry.inGroup() && entry.member() == entry.group().size() - 1) {
          checkGroupHoldsItsRows(name, entry, group);
          group = null;
        }
      }
    } catch (CorruptArchiveException e) {
      findings.problem(e);
      placed.skipBefore(partId, Long.MAX_VALUE, offset -> {});
      return;
    }
    placed.skipBefore(partId, Long.MAX_VALUE, noEntryThere);
  }

  /** Checks one entry the scan found against its rows (null if none) and its checksum. */
  void checkEntry(
      String name, PartScanner scanner, PartEntry entry, List<PlacedRows.Row> rows, long total)
      throws IOException {
    checkAgainstRows(name, entry, rows);
    try {
      scanner.reader().check(entry);
      findings.checkedBytes(entry.member() == 0 ? entry.length() : 0); // a group's bytes once
      if (rows != null && rows.stream().anyMatch(PlacedRows.Row::live)) {
        findings.checkedEntry(total);
      }
    } catch (CorruptArchiveException e) {
      findings.problem(e);
    }
  }

  /**
   * An entry no live row names must have a name the format allows; one that live rows name must be
   * what each row says (name, lengths, codec, place in its group).
   */
  void checkAgainstRows(String name, PartEntry entry, List<PlacedRows.Row> rows) {
    EntryHeader h = entry.header();
    if (rows == null) {
      String why = EntryNames.whyNotNormal(h.name());
      if (why != null) {
        findings.problem(
            name,
            entry.offset(),
            "entry name '" + EntryNames.shown(h.name()) + "' is not allowed: " + why);
      }
      return;
    }
    for (PlacedRows.Row r : rows) {
      EntryInfo row = r.info();
      if (!h.name().equals(row.name())) {
        findings.problem(
            name,
            entry.offset(),
            "catalog says '" + row.name() + "' is here, the entry header names '" + h.name() + "'");
      } else if (h.rawLength() != row.rawLength()
          || h.storedLength() != row.storedLength()
          || h.codec() != row.codec()
          || entry.length() != row.entryLength()
          || entry.member() != row.member()
          || entry.members() != row.members()) {
        findings.problem(
            name, entry.offset(), "entry '" + row.name() + "' differs from its catalog row");
      }
    }
  }

  /** After a group's last member: rows still placed in the group name no member of it. */
  void checkGroupHoldsItsRows(String name, PartEntry entry, List<PlacedRows.Row> missing) {
    for (PlacedRows.Row r : missing == null ? List.<PlacedRows.Row>of() : missing) {
      findings.problem(
          name,
          entry.offset(),
          "catalog says '" + r.info().name() + "' is in the group here, which does not hold it");
    }
  }
}
