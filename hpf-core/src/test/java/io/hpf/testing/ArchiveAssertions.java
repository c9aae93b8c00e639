package io.hpf.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.FetchedEntry;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryNotFoundException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;

/** Compares everything an {@link ArchiveReader} answers with a model map. */
public final class ArchiveAssertions {
  private ArchiveAssertions() {}

  public static void assertMatchesModel(ArchiveReader reader, SortedMap<String, byte[]> model)
      throws Exception {
    assertEquals(model.size(), reader.entryCount(), "entry count");
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), reader.get(e.getKey()), "content of " + e.getKey());
      EntryInfo info = reader.stat(e.getKey());
      assertNotNull(info, "stat of " + e.getKey());
      assertEquals(e.getValue().length, info.rawLength(), "size of " + e.getKey());
      try (InputStream in = reader.openStream(e.getKey())) {
        assertArrayEquals(e.getValue(), in.readAllBytes(), "stream of " + e.getKey());
      }
    }
    // Names not in the model are not found, without errors.
    for (String missing : List.of("no-such-entry", "x/../y", "", "/abs", "zzz/missing")) {
      if (!model.containsKey(missing)) {
        assertNull(reader.stat(missing), missing);
        assertNull(reader.stat(missing));
        assertThrows(EntryNotFoundException.class, () -> reader.get(missing));
      }
    }
    // One batch of every name and the missing ones, shuffled: each gets what its own get gets.
    List<String> batch = new ArrayList<>(model.keySet());
    batch.addAll(List.of("no-such-entry", "x/../y", "", "/abs", "zzz/missing"));
    Collections.shuffle(batch, new Random(model.size()));
    List<FetchedEntry> fetched = reader.fetchAll(batch, 64 << 20, Long.MAX_VALUE);
    for (int i = 0; i < batch.size(); i++) {
      byte[] expected = model.get(batch.get(i));
      if (expected == null) {
        assertNull(fetched.get(i), "batch fetch of missing " + batch.get(i));
      } else {
        assertArrayEquals(expected, fetched.get(i).content(), "batch fetch of " + batch.get(i));
      }
    }
    assertListing(reader, model, "");
    Set<String> prefixes = new HashSet<>();
    for (String name : model.keySet()) {
      prefixes.add(name.substring(0, Math.min(name.length(), 1 + (name.length() % 5))));
      if (prefixes.size() > 20) {
        break;
      }
    }
    for (String prefix : prefixes) {
      assertListing(reader, model, prefix);
    }
    assertListing(reader, model, "\uFFFF-no-name-starts-so");
    // The scan visits every entry once, with its content.
    Set<String> seen = new HashSet<>();
    reader.scan(
        (info, content) -> {
          assertTrue(seen.add(info.name()), "scanned twice: " + info.name());
          assertArrayEquals(
              model.get(info.name()), content.readAllBytes(), "scanned content of " + info.name());
        });
    assertEquals(model.keySet(), seen);
  }

  public static void assertListing(
      ArchiveReader reader, SortedMap<String, byte[]> model, String prefix) throws Exception {
    List<String> expected = new ArrayList<>();
    for (String name : model.keySet()) {
      if (name.startsWith(prefix)) {
        expected.add(name);
      }
    }
    List<String> actual = new ArrayList<>();
    Iterator<EntryInfo> it = reader.list(prefix);
    while (it.hasNext()) {
      EntryInfo info = it.next();
      actual.add(info.name());
      assertEquals(
          model.get(info.name()).length, info.rawLength(), "listed size of " + info.name());
    }
    assertEquals(expected, actual, "listing of prefix '" + prefix + "'");
  }
}
