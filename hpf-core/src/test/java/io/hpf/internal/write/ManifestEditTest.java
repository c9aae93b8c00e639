package io.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.manifest.Manifest;
import io.hpf.store.LocalStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The next manifest of a commit: generations, history, settings, and where dictionaries go. */
class ManifestEditTest {
  @TempDir Path temp;

  private static final ArchiveSettings SETTINGS = new ArchiveSettings(Codec.ZSTD, 2048, 512);

  @Test
  void dictionariesStayWithTheirSegmentFileAndMoveWhenItIsDropped() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("a.hpf"));
    Dictionary first = new Dictionary(1, "a dictionary of sorts".repeat(20).getBytes(UTF8));
    List<Generation.Part> parts = List.of(new Generation.Part(1, 100));

    Manifest one =
        new ManifestEdit(storage, null, id -> null, first, 64, SETTINGS)
            .withSegment(SortedRows.of(List.of()), parts, List.of(), 0, 0, 0, "create 0 entries");
    assertEquals(1, one.generation());
    assertEquals(SETTINGS, one.writerSettings());
    assertEquals(64, one.bucketCapacity());
    assertEquals(1, one.dictionaries().size());
    assertEquals(1, one.dictionaries().get(0).segmentId(), "a new archive's goes into segment 1");

    // A commit that keeps segment 1 leaves the dictionary where it is.
    List<Integer> loaded = new ArrayList<>();
    Manifest two =
        new ManifestEdit(storage, one, id -> load(loaded, first, id), null, 64, SETTINGS)
            .withSegment(SortedRows.of(List.of()), parts, one.segments(), 1, 0, 0, "add 0 entries");
    assertEquals(2, two.generation());
    assertEquals(List.of(1, 2), two.segments().stream().map(s -> s.segmentId()).toList());
    assertEquals(one.dictionaries(), two.dictionaries());
    assertEquals(List.of(), loaded, "a dictionary that stays is not read");
    assertEquals(List.of("create 0 entries", "add 0 entries"), operations(two));

    // A merge that drops both segments moves it into the new segment file.
    Manifest three =
        new ManifestEdit(storage, two, id -> load(loaded, first, id), null, 64, SETTINGS)
            .withSegment(SortedRows.of(List.of()), parts, List.of(), 0, 0, 0, "compact");
    assertEquals(List.of(3), three.segments().stream().map(s -> s.segmentId()).toList());
    assertEquals(3, three.dictionaries().get(0).segmentId());
    assertEquals(first.sizeBytes() + 32L, three.dictionaries().get(0).length());
    assertEquals(List.of(1), loaded);
    assertTrue(three.segments().get(0).fileLength() > three.dictionaries().get(0).length());
  }

  private static final java.nio.charset.Charset UTF8 = java.nio.charset.StandardCharsets.UTF_8;

  private static Dictionary load(List<Integer> loaded, Dictionary d, int id) {
    loaded.add(id);
    return id == d.id() ? d : null;
  }

  private static List<String> operations(Manifest m) {
    return m.history().stream().map(Generation.Change::operation).toList();
  }
}
