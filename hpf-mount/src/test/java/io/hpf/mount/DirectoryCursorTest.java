package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Pages of a listing as the kernel asks for them: resumed at its offset, restarted elsewhere. */
class DirectoryCursorTest {
  private static final List<String> CHILDREN = List.of("a", "b", "c", "d", "e", "f", "g");

  /** Names and positions taken, at most {@code room} a call, as a kernel buffer takes them. */
  private static List<String> page(
      DirectoryCursor<String> cursor, long offset, int room, List<Long> at) throws Exception {
    List<String> taken = new ArrayList<>();
    cursor.fill(
        offset,
        (name, position) -> {
          if (taken.size() == room) {
            return false;
          }
          taken.add(name);
          at.add(position);
          return true;
        });
    return taken;
  }

  /** A cursor over {@link #CHILDREN} that counts how often it reads them. */
  private static DirectoryCursor<String> counted(AtomicInteger opens) {
    return new DirectoryCursor<>(
        () -> {
          opens.incrementAndGet();
          return CHILDREN.iterator();
        },
        ".",
        "..");
  }

  @Test
  void pagesFollowOneAnotherFromTheKernelsOffsets() throws Exception {
    AtomicInteger opens = new AtomicInteger();
    DirectoryCursor<String> cursor = counted(opens);
    List<String> all = new ArrayList<>();
    List<Long> positions = new ArrayList<>();
    long offset = 0;
    while (true) {
      List<String> got = page(cursor, offset, 3, positions);
      if (got.isEmpty()) {
        break;
      }
      all.addAll(got);
      offset = positions.get(positions.size() - 1);
    }
    List<String> expected = new ArrayList<>(List.of(".", ".."));
    expected.addAll(CHILDREN);
    assertEquals(expected, all);
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), positions);
    assertEquals(1, opens.get(), "read once, page by page");
  }

  @Test
  void anOffsetElsewhereStartsAgainAndSkipsToIt() throws Exception {
    AtomicInteger opens = new AtomicInteger();
    DirectoryCursor<String> cursor = counted(opens);
    List<Long> at = new ArrayList<>();
    assertEquals(List.of(".", "..", "a"), page(cursor, 0, 3, at));
    assertEquals(List.of("e", "f"), page(cursor, 6, 2, at), "a seekdir to after d");
    assertEquals(List.of(".", ".."), page(cursor, 0, 2, at), "a rewind");
    assertEquals(3, opens.get());
  }
}
