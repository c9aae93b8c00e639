package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The holder the mount, {@code hpf://} and the server serve archives from: a user keeps the
 * generation it acquired until it lets go, a refresh or a writer's commit moves the others on, and
 * the generation left behind closes with its last user.
 */
class LiveArchiveTest {
  @TempDir Path temp;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static WriterOptions replacing() {
    return WriterOptions.builder().replace(true).gracePeriodMillis(0).build();
  }

  private Path archiveWith(String content) throws IOException {
    Path dir = temp.resolve("a.hpf");
    try (ArchiveWriter w = ArchiveWriter.create(LocalStorage.createDirectories(dir), replacing())) {
      w.add("x", bytes(content), EntryMetadata.of(0));
      w.commit();
    }
    return dir;
  }

  private static Generation replace(Path dir, String content) throws IOException {
    try (ArchiveWriter w = ArchiveWriter.open(LocalStorage.open(dir), replacing())) {
      w.add("x", bytes(content), EntryMetadata.of(0));
      return w.commit();
    }
  }

  @Test
  void aHeldGenerationKeepsItsBytesAcrossARefreshAndClosesWithItsLastUser() throws IOException {
    Path dir = archiveWith("one");
    try (LiveArchive live = LiveArchive.open("a", LocalStorage.open(dir))) {
      ArchiveSnapshot held = live.acquire();
      replace(dir, "two");
      List<String> told = new ArrayList<>();
      assertTrue(
          live.refresh(
              (before, now) -> {
                told.add(new String(before.get("x"), StandardCharsets.UTF_8));
                told.add(new String(now.get("x"), StandardCharsets.UTF_8));
              }));
      assertEquals(List.of("one", "two"), told);
      assertArrayEquals(bytes("one"), held.reader().get("x"));
      ArchiveSnapshot later = live.acquire();
      assertArrayEquals(bytes("two"), later.reader().get("x"));
      held.release(); // the last user of generation 1: its reader closes
      assertFalse(held.acquire());
      later.release();
      assertFalse(live.refresh((before, now) -> told.add("again")), "no commit, no swap");
      assertEquals(2, told.size());
    }
  }

  @Test
  void aWritersCommitIsServedWithoutAListing() throws IOException {
    Path dir = archiveWith("one");
    try (LiveArchive live = LiveArchive.open("a", LocalStorage.open(dir))) {
      Generation committed = replace(dir, "two");
      assertTrue(live.advanceTo(committed));
      assertEquals(committed.generation(), live.peek().manifest().generation());
      assertArrayEquals(bytes("two"), live.peek().get("x"));
      assertFalse(live.advanceTo(committed), "already served");
    }
  }

  @Test
  void aClosedArchiveIsNoLongerServedButItsHeldGenerationReadsOn() throws IOException {
    Path dir = archiveWith("one");
    LiveArchive live = LiveArchive.open("photos", LocalStorage.open(dir));
    ArchiveSnapshot held = live.acquire();
    live.close();
    assertNull(live.tryAcquire());
    IOException e = assertThrows(IOException.class, live::acquire);
    assertEquals("photos: no longer served (gone from where it was)", e.getMessage());
    replace(dir, "two");
    assertFalse(live.refresh((before, now) -> {}));
    assertArrayEquals(bytes("one"), held.reader().get("x"));
    held.release();
    assertFalse(held.acquire());
  }
}
