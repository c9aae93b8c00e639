package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listings from a key, which read a catalog block's rows before the key without making them into
 * rows: the same rows as the model, across blocks, and the same judgement of a damaged block as a
 * listing that reads every row.
 */
class CatalogSeekTest {
  @TempDir Path temp;

  private static List<String> names(Iterator<EntryInfo> rows) {
    List<String> out = new ArrayList<>();
    rows.forEachRemaining(r -> out.add(r.name()));
    return out;
  }

  @Test
  void listingsFromAnyKeyAreTheModelsAcrossBlocks() throws Exception {
    TreeSet<String> model = new TreeSet<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(3);
    try (ArchiveWriter w =
        ArchiveWriter.create(
            LocalStorage.createDirectories(temp.resolve("a.hpf")),
            WriterOptions.builder().build())) {
      for (int i = 0; i < 4000; i++) { // a catalog of several 32 KiB blocks
        String name =
            String.format(
                java.util.Locale.ROOT,
                "d%02d/%s-%05d%s",
                random.nextInt(40),
                random.nextBoolean() ? "é" : "x",
                random.nextInt(100_000),
                random.nextInt(4) == 0 ? "/deeper-name-for-length" : "");
        if (model.add(name)) {
          w.add(name, name.getBytes(StandardCharsets.UTF_8), EntryMetadata.of(0));
        }
      }
      w.commit();
    }
    List<String> all = new ArrayList<>(model);
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(temp.resolve("a.hpf")))) {
      for (int i = 0; i < 300; i++) {
        String some = all.get(random.nextInt(all.size()));
        String prefix = i % 3 == 0 ? "" : some.substring(0, 4); // "" or "dNN/"
        String from =
            switch (i % 4) {
              case 0 -> some; // a name there
              case 1 -> some + "\u0000"; // just after it
              case 2 -> some.substring(0, some.length() - 1); // just before it, not a name
              default -> "d" + random.nextInt(100); // anywhere
            };
        List<String> expected = new ArrayList<>();
        for (String n : model.tailSet(from, true)) {
          if (!n.startsWith(prefix)) {
            if (ArchiveModel.compareUtf8(n, prefix) > 0) {
              break;
            }
            continue;
          }
          expected.add(n);
        }
        assertEquals(expected, names(reader.list(prefix, from)), "from '" + from + "'");
      }
    }
  }

  @Test
  void aDamagedRowBeforeTheKeyIsJudgedAsAWholeReadJudgesIt() throws Exception {
    CraftedArchive crafted = new CraftedArchive(temp.resolve("bad.hpf"));
    byte[] content = "fine".getBytes(StandardCharsets.UTF_8);
    crafted.addPlain("b/1", content).addPlain("b/2", content).addPlain("c/1", content);
    crafted.addRow( // member 3 of a group of 2: no writer writes it
        new EntryInfo(
            "a/bad",
            false,
            1,
            1,
            Codec.NONE,
            0,
            1_700_000_000_000L,
            0644,
            Map.of(),
            1,
            16,
            40,
            3,
            2));
    LocalStorage storage = crafted.commit();
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      UncheckedIOException whole =
          assertThrows(UncheckedIOException.class, () -> names(reader.list("")));
      UncheckedIOException seek =
          assertThrows(UncheckedIOException.class, () -> names(reader.list("", "c/")));
      assertTrue(whole.getCause() instanceof CorruptArchiveException, whole.toString());
      assertTrue(whole.getMessage().contains("member 3 of a group of 2"), whole.getMessage());
      assertEquals(whole.getCause().getMessage(), seek.getCause().getMessage());
    }
  }
}
