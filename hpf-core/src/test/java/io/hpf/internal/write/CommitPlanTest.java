package io.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.NameConflictException;
import io.hpf.internal.manifest.Manifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The commit plan against a map standing for the last commit: no storage involved. */
class CommitPlanTest {
  private static EntryInfo entry(String name, long length) {
    return new EntryInfo(name, false, 1, 1, Codec.NONE, 0, 0, 0644, Map.of(), 1, 16, length, 0, 0);
  }

  /** A last commit of a/x (100 bytes) and b/y (200 bytes). */
  private static final Map<String, EntryInfo> LAST =
      new TreeMap<>(Map.of("a/x", entry("a/x", 100), "b/y", entry("b/y", 200)));

  private static final Manifest BASE =
      new Manifest(
          3,
          0,
          "add",
          100,
          new io.hpf.archive.model.ArchiveSettings(io.hpf.archive.model.Codec.ZSTD, 2048, 512),
          2,
          300,
          List.of(),
          List.of(),
          List.of(),
          List.of(),
          null);

  private static CommitPlan plan(List<EntryInfo> added, Set<String> deletes, boolean replace)
      throws Exception {
    return CommitPlan.of("t.hpf", added, deletes, BASE, lookup(LAST), replace);
  }

  /** A last commit of the entries of {@code last}, sorted by name. */
  private static CommitPlan.Lookup lookup(Map<String, EntryInfo> last) {
    TreeMap<String, EntryInfo> sorted = new TreeMap<>(last);
    return new CommitPlan.Lookup() {
      @Override
      public EntryInfo stat(String name) {
        return sorted.get(name);
      }

      @Override
      public java.util.Iterator<EntryInfo> list(String prefix) {
        return sorted.tailMap(prefix).values().stream()
            .filter(e -> e.name().startsWith(prefix))
            .iterator();
      }
    };
  }

  @Test
  void aNameIsNeverBothAFileAndADirectory() throws Exception {
    // Against the last commit (a/x, b/y): a/x is a file, a and b are directories.
    for (String[] clash :
        new String[][] {{"a/x", "a/x/deeper"}, {"a", "a"}, {"b", "b"}, {"a/x", "a/x/1/2/3"}}) {
      String added = clash[1].equals(clash[0]) ? clash[0] : clash[1];
      NameConflictException e =
          assertThrows(
              NameConflictException.class,
              () -> plan(List.of(entry(added, 1)), Set.of(), true),
              added);
      assertEquals(NameConflictException.Kind.CLASH, e.kind(), added);
      assertEquals(clash[0], e.names().get(0), added);
      assertTrue(e.getMessage().startsWith("t.hpf: '" + clash[0] + "' and '"), e.getMessage());
    }
    // Within one commit, in either order of adding.
    NameConflictException inBatch =
        assertThrows(
            NameConflictException.class,
            () -> plan(List.of(entry("c/d/e", 1), entry("c/d", 1)), Set.of(), false));
    assertEquals("c/d", inBatch.names().get(0));
    assertEquals("c/d/e", inBatch.names().get(1));
    // What the same commit deletes is no longer in the way.
    assertEquals(
        List.of("-a/x", "+a/x/now-a-directory"),
        names(plan(List.of(entry("a/x/now-a-directory", 1)), Set.of("a/x"), false)));
    assertEquals(List.of("+b", "-b/y"), names(plan(List.of(entry("b", 1)), Set.of("b/y"), false)));
    // Names that only share a beginning do not clash.
    assertEquals(
        List.of("+a/x-1", "+a/x.d/y", "+b/yy"),
        names(
            plan(
                List.of(entry("a/x-1", 1), entry("a/x.d/y", 1), entry("b/yy", 1)),
                Set.of(),
                false)));
  }

  private static List<String> names(CommitPlan plan) throws IOException {
    List<String> names = new ArrayList<>();
    try (SortedRows.Cursor rows = plan.rows().open()) {
      for (SegmentBuilder.Row r = rows.next(); r != null; r = rows.next()) {
        names.add((r.info().deleted() ? "-" : "+") + r.info().name());
      }
    }
    return names;
  }

  @Test
  void addsReplacesAndDeletesCountAndSortTogether() throws Exception {
    CommitPlan p = plan(List.of(entry("c/z", 50), entry("a/x", 70)), Set.of("b/y"), true);
    assertEquals(List.of("+a/x", "-b/y", "+c/z"), names(p));
    assertEquals(2, p.liveEntries()); // a/x replaced, b/y gone, c/z new
    assertEquals(300 - 100 + 70 - 200 + 50, p.liveBytes());
    assertEquals("add --replace 2 entries, rm 1", p.operation());
    assertEquals("rm 1 entry", plan(List.of(), Set.of("a/x"), false).operation());
    assertEquals("add 1 entry", plan(List.of(entry("n", 1)), Set.of(), false).operation());
    CommitPlan create =
        CommitPlan.of(
            "t.hpf", List.of(entry("n", 1)), Set.of(), null, CommitPlan.Lookup.NONE, false);
    assertEquals("create 1 entry", create.operation());
    assertEquals(1, create.liveBytes());
    assertEquals(0, plan(List.of(), Set.of(), false).rows().size());
  }

  @Test
  void everyMistakeIsRefusedNamingTheNames() {
    NameConflictException dup =
        assertThrows(
            NameConflictException.class,
            () -> plan(List.of(entry("d", 1), entry("d", 2), entry("e", 1)), Set.of(), false));
    assertEquals(NameConflictException.Kind.DUPLICATE, dup.kind());
    assertTrue(dup.getMessage().contains("'d'"), dup.getMessage());
    NameConflictException exists =
        assertThrows(
            NameConflictException.class, () -> plan(List.of(entry("a/x", 1)), Set.of(), false));
    assertEquals(NameConflictException.Kind.EXISTS, exists.kind());
    assertEquals(List.of("a/x"), exists.names());
    EntryNotFoundException missing =
        assertThrows(EntryNotFoundException.class, () -> plan(List.of(), Set.of("nope"), false));
    assertTrue(missing.getMessage().contains("'nope'"), missing.getMessage());
    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () -> plan(List.of(entry("a/x", 1)), Set.of("a/x"), true));
    assertTrue(both.getMessage().contains("both added and deleted"), both.getMessage());
  }
}
