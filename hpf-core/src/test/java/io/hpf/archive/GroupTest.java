package io.hpf.archive;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CompactionResult;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.read.SharedGenerations;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Groups of small entries (FORMAT.md "Group"): layout, every read path, deletes, damage. */
class GroupTest {
  @TempDir Path temp;

  private static WriterOptions.Builder groups(Codec codec) {
    return WriterOptions.builder().codec(codec).groups(4096, 1024).autoCompact(false);
  }

  private static List<EntryInfo> rows(ArchiveReader reader) throws Exception {
    List<EntryInfo> rows = new ArrayList<>();
    for (Iterator<EntryInfo> it = reader.list(""); it.hasNext(); ) {
      rows.add(it.next());
    }
    return rows;
  }

  @Test
  void smallEntriesShareGroupsAndReadBackEveryWay() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(400, 14);
    LocalStorage storage =
        TestArchives.write(temp.resolve("a.hpf"), model, groups(Codec.ZSTD).build(), 2);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertMatchesModel(reader, model);
      Map<Long, Integer> groupSizes = new HashMap<>();
      long accounted = 0;
      for (EntryInfo row : rows(reader)) {
        accounted += row.accountedBytes();
        assertEquals(row.inGroup(), model.get(row.name()).length <= 1024, row.name());
        if (row.inGroup()) {
          groupSizes.merge(row.partId() * (1L << 40) + row.offset(), 1, Integer::sum);
          assertEquals(row, reader.stat(row.name()), "index and catalog agree on a member");
          try (InputStream in = reader.openStream(row.name())) {
            assertArrayEquals(model.get(row.name()), in.readAllBytes(), row.name());
          }
        }
      }
      assertTrue(groupSizes.size() >= 5, groupSizes.size() + " groups");
      assertTrue(groupSizes.values().stream().anyMatch(n -> n > 2), groupSizes.toString());
      // The members' shares and the other entries add up to the parts exactly: nothing is dead.
      assertEquals(reader.manifest().liveEntryBytes(), accounted);
      assertEquals(0, reader.manifest().deadBytes());
      // `hpf info`'s stored bytes: each group's stored length, read from its entry header in the
      // part file (FORMAT.md "Entry": u64 at offset 24), once, and the other entries' own.
      long expectedStored = 0;
      Map<Long, Boolean> seen = new HashMap<>();
      for (EntryInfo row : rows(reader)) {
        if (!row.inGroup()) {
          expectedStored += row.storedLength();
        } else if (seen.put(row.partId() * (1L << 40) + row.offset(), true) == null) {
          byte[] part =
              Files.readAllBytes(
                  temp.resolve("a.hpf").resolve(FileNames.partFileName(row.partId())));
          expectedStored +=
              ByteBuffer.wrap(part, (int) row.offset() + 24, 8)
                  .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                  .getLong();
        }
      }
      ArchiveInfo summary = ArchiveInfo.of(reader);
      assertEquals(expectedStored, summary.storedBytes());
      assertTrue(summary.storedBytes() < summary.contentBytes(), "groups compress: " + summary);
      Map<String, byte[]> scanned = new TreeMap<>(ArchiveModel::compareUtf8);
      reader.scan((info, content) -> scanned.put(info.name(), content.readAllBytes()));
      assertEquals(model.keySet(), scanned.keySet());
      scanned.forEach((name, bytes) -> assertArrayEquals(model.get(name), bytes, name));
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    assertEquals(model.size(), report.entriesChecked());
  }

  /** A group read by FORMAT.md alone, with zstd as the only help. */
  @Test
  void aGroupLiesInThePartAsTheSpecSays() throws Exception {
    SplittableRandom random = new SplittableRandom(3);
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    for (int i = 0; i < 30; i++) {
      byte[] content = new byte[100 + i];
      random.nextBytes(content);
      model.put("d/f" + i, content);
    }
    LocalStorage storage =
        TestArchives.write(temp.resolve("b.hpf"), model, groups(Codec.ZSTD).build(), 1);
    Map<Integer, byte[]> parts = new HashMap<>();
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      for (EntryInfo row : rows(reader)) {
        assertTrue(row.inGroup());
        byte[] part =
            parts.computeIfAbsent(
                row.partId(),
                id -> {
                  try {
                    return Files.readAllBytes(
                        temp.resolve("b.hpf").resolve(FileNames.partFileName(id)));
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                });
        int at = (int) row.offset();
        assertEquals(FormatConstants.ENTRY_MAGIC, ByteReader.getU32(part, at));
        assertEquals(52, ByteReader.getU32(part, at + 4), "a group header has no name");
        assertEquals(1, part[at + 9], "flags: a group");
        int rawLength = (int) ByteReader.getU64(part, at + 16);
        int storedLength = (int) ByteReader.getU64(part, at + 24);
        byte[] stored = java.util.Arrays.copyOfRange(part, at + 52, at + 52 + storedLength);
        byte[] raw =
            part[at + 8] == 0 ? stored : com.github.luben.zstd.Zstd.decompress(stored, rawLength);
        assertEquals(
            ByteReader.getU32(part, at + 52 + storedLength),
            io.hpf.internal.format.EntryCodec.crc32c(raw, 0, raw.length),
            "the group's CRC32C covers its raw members");
        // Walk the members by FORMAT.md "Group" to the one this row names.
        ByteReader members = new ByteReader("group", 0, raw);
        for (int m = 0; ; m++) {
          String name = members.utf8(members.varInt("name length"), "name");
          int length = members.varInt("raw length");
          long mtime = members.zigZag("mtime");
          long mode = members.varLong("mode");
          assertEquals(0, members.varInt("attributes"));
          byte[] content = members.bytes(length, "content");
          assertArrayEquals(model.get(name), content, name);
          assertEquals(EntryMetadata.DEFAULT_MODE, mode);
          if (name.equals(row.name())) {
            assertEquals(row.mtimeMillis(), mtime);
            assertEquals(m, row.member());
            break;
          }
        }
      }
    }
  }

  @Test
  void deadMembersAreReclaimedByCompaction() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    for (int i = 0; i < 300; i++) {
      model.put(
          "logs/" + i + ".log",
          ("line " + i + " of a log\n").repeat(1 + i % 40).getBytes(StandardCharsets.UTF_8));
    }
    Path dir = temp.resolve("c.hpf");
    LocalStorage storage = TestArchives.write(dir, model, groups(Codec.LZ4).build(), 1);
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, groups(Codec.LZ4).replace(true).build())) {
      for (int i = 0; i < 300; i += 2) {
        writer.delete("logs/" + i + ".log");
        model.remove("logs/" + i + ".log");
      }
      for (int i = 1; i < 60; i += 6) {
        byte[] replaced = ("replaced " + i).getBytes(StandardCharsets.UTF_8);
        writer.add("logs/" + i + ".log", replaced, EntryMetadata.of(5));
        model.put("logs/" + i + ".log", replaced);
      }
      writer.commit();
      assertTrue(writer.manifest().deadBytes() > 0, "deleted members leave dead bytes");
      long accounted = 0;
      try (ArchiveReader reader = ArchiveReader.open(storage)) {
        assertMatchesModel(reader, model);
        for (EntryInfo row : rows(reader)) {
          accounted += row.accountedBytes();
        }
      }
      assertEquals(writer.manifest().liveEntryBytes(), accounted);
      long before = writer.manifest().partBytes();
      CompactionResult result = writer.compact(true);
      assertTrue(result.bytesReclaimed() > before / 3, result.toString());
      assertEquals(0, writer.manifest().deadBytes());
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertMatchesModel(reader, model);
      assertTrue(rows(reader).stream().allMatch(EntryInfo::inGroup), "live members regrouped");
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  /** Each group's member names (sorted) and its bytes as they lie in its part file. */
  private static Map<List<String>, byte[]> groupBytes(Path dir) throws Exception {
    Map<List<String>, byte[]> groups = new java.util.HashMap<>();
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      Map<String, List<EntryInfo>> byPlace = new TreeMap<>();
      for (EntryInfo row : rows(reader)) {
        if (row.inGroup()) {
          byPlace
              .computeIfAbsent(row.partId() + ":" + row.offset(), k -> new ArrayList<>())
              .add(row);
        }
      }
      for (List<EntryInfo> members : byPlace.values()) {
        EntryInfo first = members.get(0);
        byte[] part = Files.readAllBytes(dir.resolve(FileNames.partFileName(first.partId())));
        groups.put(
            members.stream().map(EntryInfo::name).sorted().toList(),
            java.util.Arrays.copyOfRange(
                part, (int) first.offset(), (int) (first.offset() + first.entryLength())));
      }
    }
    return groups;
  }

  @Test
  void reclaimingCopiesWholeGroupsAsTheyAreAndRegroupsTheRest() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    for (int i = 0; i < 200; i++) {
      model.put("a/" + i, ("entry " + i + " ").repeat(1 + i % 20).getBytes(StandardCharsets.UTF_8));
    }
    Path dir = temp.resolve("verbatim.hpf");
    LocalStorage storage = TestArchives.write(dir, model, groups(Codec.ZSTD).build(), 1);
    Map<List<String>, byte[]> before = groupBytes(dir);
    assertTrue(before.size() > 3, before.size() + " groups");
    String deleted = before.keySet().iterator().next().get(0);
    try (ArchiveWriter writer = ArchiveWriter.open(storage, groups(Codec.ZSTD).build())) {
      writer.delete(deleted);
      model.remove(deleted);
      writer.commit();
      writer.compact(true);
    }
    Map<List<String>, byte[]> after = groupBytes(dir);
    int verbatim = 0;
    for (Map.Entry<List<String>, byte[]> e : before.entrySet()) {
      if (e.getKey().contains(deleted)) {
        assertFalse(after.containsKey(e.getKey()), "the group with a dead member is rebuilt");
      } else {
        assertArrayEquals(e.getValue(), after.get(e.getKey()), "copied as it was: " + e.getKey());
        verbatim++;
      }
    }
    assertEquals(before.size() - 1, verbatim);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertMatchesModel(reader, model);
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  @Test
  void damageInAGroupIsAnErrorNamingThePartAndTheGroup() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    for (int i = 0; i < 100; i++) {
      model.put("t/" + i, ("text " + i + " ").repeat(20).getBytes(StandardCharsets.UTF_8));
    }
    Path dir = temp.resolve("d.hpf");
    LocalStorage storage = TestArchives.write(dir, model, groups(Codec.ZSTD).build(), 1);
    EntryInfo victim;
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      victim = reader.stat("t/50");
    }
    assertTrue(victim.inGroup());
    long inGroup = victim.offset() + 52 + 10; // past the group's header: its compressed members
    try (FileChannel ch =
        FileChannel.open(
            dir.resolve(FileNames.partFileName(victim.partId())),
            StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, inGroup);
      one.put(0, (byte) (one.get(0) ^ 0x10)).rewind();
      ch.write(one, inGroup);
    }
    // The damage is made under this process's open generation, which keeps the group it decoded
    // and checked: a reader that starts afresh (another process) is what sees it.
    SharedGenerations.clear();
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      CorruptArchiveException e =
          assertThrows(CorruptArchiveException.class, () -> reader.get("t/50"));
      assertTrue(e.getMessage().contains(FileNames.partFileName(victim.partId())), e.getMessage());
      assertTrue(e.getMessage().contains("group"), e.getMessage());
      int readable = 0;
      for (EntryInfo row : rows(reader)) { // the catalog's places: a stat reads the group
        if (row.offset() != victim.offset()) {
          assertArrayEquals(model.get(row.name()), reader.get(row.name()), row.name());
          readable++;
        }
      }
      assertTrue(readable > 50, readable + " entries outside the damaged group");
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertFalse(report.ok());
    assertTrue(
        report.problems().stream().anyMatch(p -> p.message().contains("group")),
        report.problems().toString());
  }

  private static byte[] member(String name, int claimedLength, byte[] content) {
    ByteWriter out = new ByteWriter();
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    out.varLong(utf8.length).bytes(utf8).varLong(claimedLength).zigZag(7).varLong(0644);
    return out.varLong(0).bytes(content).toByteArray();
  }

  @Test
  void craftedGroupsGiveErrorsOrNotFoundNeverWrongBytes() throws Exception {
    byte[] good = member("ok", 3, new byte[] {1, 2, 3});
    byte[] overrun = member("long", 100, new byte[] {1, 2, 3, 4, 5});
    LocalStorage storage =
        new CraftedArchive(temp.resolve("e.hpf"))
            .addGroup(good, "ok", "absent")
            .addGroup(overrun, "long")
            // a group claiming 2 GiB: refused by its header, before anything is allocated
            .addGroup(Codec.ZSTD, Integer.MAX_VALUE, new byte[16], 0, "huge")
            .commit();
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertArrayEquals(new byte[] {1, 2, 3}, reader.get("ok"));
      assertEquals(7, reader.stat("ok").mtimeMillis());
      assertNull(reader.stat("absent"), "a name its group does not hold is not there");
      CorruptArchiveException overrunError =
          assertThrows(CorruptArchiveException.class, () -> reader.get("long"));
      assertTrue(overrunError.getMessage().contains("member content"), overrunError.getMessage());
      assertTrue(overrunError.getMessage().contains("group at"), overrunError.getMessage());
      CorruptArchiveException hugeError =
          assertThrows(CorruptArchiveException.class, () -> reader.get("huge"));
      assertTrue(hugeError.getMessage().contains("1048576"), hugeError.getMessage());
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    String problems = report.problems().toString();
    assertTrue(
        problems.contains("'absent' is in the group here, which does not hold it"), problems);
    assertTrue(problems.contains("member content"), problems);
    assertTrue(problems.contains("1048576"), problems);
  }
}
