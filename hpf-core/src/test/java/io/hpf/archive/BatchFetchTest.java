package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.FaultyStorage;
import io.hpf.testing.TestArchives;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ArchiveReader#fetchAll}: what many single fetches give, with far fewer reads; and a pass
 * over planned places ({@link ArchiveReader#openPart(int, long[], long[])}) that reads likewise.
 */
class BatchFetchTest {
  @TempDir Path temp;

  /** Several segments (replaced and deleted entries), groups, one entry over a run's bytes. */
  private TreeMap<String, byte[]> writeChanged(Path dir, Codec codec) throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(400, codec.ordinal() + 11L);
    model.put("big/over-a-run.bin", ArchiveModel.content(new SplittableRandom(5), 9 << 20));
    WriterOptions options = WriterOptions.builder().codec(codec).build();
    TestArchives.write(dir, model, options, 2);
    SplittableRandom random = new SplittableRandom(codec.ordinal());
    try (ArchiveWriter writer =
        ArchiveWriter.open(
            LocalStorage.open(dir), WriterOptions.builder().codec(codec).replace(true).build())) {
      int i = 0;
      for (String name : new ArrayList<>(model.keySet())) {
        if (i % 7 == 0) {
          writer.delete(name);
          model.remove(name);
        } else if (i % 11 == 0) {
          byte[] content = ArchiveModel.content(random, random.nextInt(3000));
          writer.add(name, content, EntryMetadata.of(1_800_000_000_000L));
          model.put(name, content);
        }
        i++;
      }
      writer.commit();
    }
    return model;
  }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void everyNameGetsWhatItsOwnFetchGets(Codec codec) throws Exception {
    Path dir = temp.resolve(codec + ".hpf");
    TreeMap<String, byte[]> model = writeChanged(dir, codec);
    List<String> names = new ArrayList<>(ArchiveModel.random(400, codec.ordinal() + 11L).keySet());
    names.addAll(List.of("no/such/name", "../escape", "", "big/over-a-run.bin"));
    names.add(names.get(3)); // twice
    Collections.shuffle(names, new Random(codec.ordinal()));
    int maxWhole = 16 << 20;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      List<FetchedEntry> all = reader.fetchAll(names, maxWhole, Long.MAX_VALUE);
      assertEquals(names.size(), all.size());
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(i);
        FetchedEntry one = reader.fetch(name, maxWhole);
        FetchedEntry batch = all.get(i);
        if (!model.containsKey(name)) {
          assertNull(one, name);
          assertNull(batch, name + " is not in the archive (deleted, missing or invalid)");
          continue;
        }
        assertNotNull(batch, name);
        assertEquals(one.info(), batch.info(), name);
        assertEquals(one.crc32c(), batch.crc32c(), name);
        assertArrayEquals(model.get(name), batch.content(), name);
      }
    }
  }

  @Test
  void neighboursShareOneReadAndDistantEntriesAreReadApart() throws Exception {
    Path dir = temp.resolve("none.hpf");
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 200; i++) {
      model.put(String.format(Locale.ROOT, "n/%04d", i), ArchiveModel.content(random, 1024));
    }
    for (int i = 0; i < 40; i++) {
      model.put(String.format(Locale.ROOT, "far/%04d", i), ArchiveModel.content(random, 64 << 10));
    }
    // One thread, no groups: entries lie in one part in the order written.
    WriterOptions options = WriterOptions.builder().codec(Codec.NONE).groups(0, 0).build();
    TestArchives.write(dir, model, options, 1);
    FaultyStorage counted = new FaultyStorage(LocalStorage.open(dir), 0); // no faults: counts
    try (ArchiveReader reader = ArchiveReader.open(counted)) {
      List<String> near = new ArrayList<>(model.headMap("o").keySet());
      Collections.shuffle(near, new Random(2));
      List<FetchedEntry> found = reader.fetchAll(near, 1 << 20, Long.MAX_VALUE);
      for (int i = 0; i < near.size(); i++) {
        assertArrayEquals(model.get(near.get(i)), found.get(i).content(), near.get(i));
      }
      assertEquals(1, counted.partReads(), "200 neighbouring entries, one read");
      // Every other 64 KiB entry: gaps over the local coalescing distance, so a read each, in
      // parallel (more runs than a batch reads at once).
      List<String> far = new ArrayList<>();
      for (int i = 0; i < 40; i += 2) {
        far.add(String.format(Locale.ROOT, "far/%04d", i));
      }
      int before = counted.partReads();
      found = reader.fetchAll(far, 1 << 20, Long.MAX_VALUE);
      for (int i = 0; i < far.size(); i++) {
        assertArrayEquals(model.get(far.get(i)), found.get(i).content(), far.get(i));
      }
      assertEquals(far.size(), counted.partReads() - before, "one read per distant entry");
      // A task's pass over planned places reads the same way: neighbours together, far apart
      // alone (a pass has its own file handle: opening it reads nothing).
      assertEquals(1, passReads(reader, counted, near, model), "a pass over neighbours");
      assertEquals(far.size(), passReads(reader, counted, far, model), "a pass over far ones");
    }
  }

  /** Part reads of a cursor pass over the named entries, each checked against the model. */
  private static int passReads(
      ArchiveReader reader,
      FaultyStorage counted,
      List<String> names,
      TreeMap<String, byte[]> model)
      throws IOException {
    List<EntryInfo> rows = new ArrayList<>();
    for (String name : names) {
      rows.add(reader.stat(name));
    }
    rows.sort(java.util.Comparator.comparingLong(EntryInfo::offset));
    long[] offsets = rows.stream().mapToLong(EntryInfo::offset).toArray();
    long[] lengths = rows.stream().mapToLong(EntryInfo::entryLength).toArray();
    int before = counted.partReads();
    try (PartCursor cursor = reader.openPart(rows.get(0).partId(), offsets, lengths)) {
      for (EntryInfo row : rows) {
        assertEquals(row.name(), cursor.entryAt(row.offset(), row.member()).name());
        assertArrayEquals(model.get(row.name()), cursor.content(), row.name());
      }
    }
    return counted.partReads() - before;
  }

  @Test
  void contentStopsAtTheBudgetAndTheLimitPerEntry() throws Exception {
    Path dir = temp.resolve("budget.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(300, 3);
    TestArchives.write(dir, model, WriterOptions.builder().build(), 2);
    List<String> names = new ArrayList<>(model.keySet());
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      long maxTotal = 30_000; // of about 75,000 bytes in entries of at most 2,000
      int maxWhole = 2_000;
      long total = 0;
      int withContent = 0;
      List<FetchedEntry> found = reader.fetchAll(names, maxWhole, maxTotal);
      for (int i = 0; i < names.size(); i++) {
        FetchedEntry e = found.get(i);
        byte[] expected = model.get(names.get(i));
        assertEquals(expected.length, e.info().rawLength(), names.get(i));
        if (e.content() != null) {
          assertArrayEquals(expected, e.content(), names.get(i));
          assertTrue(expected.length <= maxWhole, names.get(i));
          total += expected.length;
          withContent++;
        }
      }
      assertTrue(total <= maxTotal, "content returned: " + total);
      assertTrue(total > maxTotal - maxWhole, "the budget was used: " + total);
      assertTrue(withContent < names.size());
      for (FetchedEntry e : reader.fetchAll(names, 0, 0)) {
        // Within a limit of 0 bytes: only an empty entry comes with its (empty) content.
        assertTrue(
            e.content() == null ? e.info().rawLength() > 0 : e.content().length == 0,
            "metadata only: " + e.info().name());
      }
    }
  }

  @Test
  void readFaultsGiveErrorsNeverWrongBytes() throws Exception {
    Path dir = temp.resolve("faulty.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(300, 9);
    TestArchives.write(dir, model, WriterOptions.builder().build(), 2);
    List<String> names = new ArrayList<>(model.keySet());
    FaultyStorage faulty = new FaultyStorage(LocalStorage.open(dir), 4);
    int failed = 0;
    try (ArchiveReader reader = ArchiveReader.open(faulty)) {
      faulty.failWithProbability(0.002);
      for (int round = 0; round < 30; round++) {
        try {
          List<FetchedEntry> found = reader.fetchAll(names, 1 << 20, Long.MAX_VALUE);
          for (int i = 0; i < names.size(); i++) {
            assertArrayEquals(model.get(names.get(i)), found.get(i).content(), names.get(i));
          }
        } catch (IOException e) {
          assertTrue(e.getMessage().contains("injected fault"), e.getMessage());
          failed++;
        }
      }
    }
    assertTrue(failed > 0 && failed < 30, "rounds failed: " + failed);
  }

  @Test
  void damageIsReportedAsASingleFetchReportsIt() throws Exception {
    Path dir = temp.resolve("damaged.hpf");
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom random = new SplittableRandom(8);
    for (int i = 0; i < 50; i++) {
      model.put("e/" + i, ArchiveModel.content(random, 4000));
    }
    WriterOptions options = WriterOptions.builder().codec(Codec.NONE).groups(0, 0).build();
    TestArchives.write(dir, model, options, 1);
    String victim = "e/17";
    EntryInfo info;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      info = reader.stat(victim);
    }
    try (FileChannel part =
        FileChannel.open(
            dir.resolve(FileNames.partFileName(info.partId())), StandardOpenOption.WRITE)) {
      part.write(ByteBuffer.wrap(new byte[] {0x55}), info.offset() + info.entryLength() - 100);
    }
    List<String> names = new ArrayList<>(model.keySet());
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      CorruptArchiveException single =
          assertThrows(CorruptArchiveException.class, () -> reader.fetch(victim, 1 << 20));
      CorruptArchiveException batch =
          assertThrows(
              CorruptArchiveException.class, () -> reader.fetchAll(names, 1 << 20, 1 << 30));
      assertEquals(single.getMessage(), batch.getMessage());
      assertTrue(batch.getMessage().contains(FileNames.partFileName(info.partId())));
    }
  }
}
