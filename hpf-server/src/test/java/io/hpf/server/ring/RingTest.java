package io.hpf.server.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Consistent hashing: placement, preference, movement when a server joins, balance. */
class RingTest {
  static List<RingMember> members(int n) {
    List<RingMember> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new RingMember("s" + i, "127.0.0.1:" + (9000 + i)));
    }
    return out;
  }

  static List<String> archives(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("logs/2024/day-" + i);
    }
    return out;
  }

  @Test
  void placementIsTheSameInEveryProcessAndPreferenceStartsAtTheOwner() {
    Ring a = new Ring(members(5), Ring.DEFAULT_VIRTUAL_NODES);
    List<RingMember> reversed = new ArrayList<>(members(5));
    java.util.Collections.reverse(reversed);
    Ring b = new Ring(reversed, Ring.DEFAULT_VIRTUAL_NODES);
    for (String archive : archives(2000)) {
      assertEquals(a.owner(archive), b.owner(archive));
      List<RingMember> preference = a.preference(archive);
      assertEquals(a.owner(archive), preference.get(0));
      assertEquals(5, new HashSet<>(preference).size());
    }
    // Without its owner, an archive goes to the next server of its preference list.
    for (String archive : archives(500)) {
      RingMember owner = a.owner(archive);
      List<RingMember> rest = new ArrayList<>(members(5));
      rest.remove(owner);
      assertEquals(
          a.preference(archive).get(1), new Ring(rest, Ring.DEFAULT_VIRTUAL_NODES).owner(archive));
    }
  }

  @Test
  void addingAServerMovesAboutOneInNPlusOneArchivesAllToTheNewServer() {
    List<String> archives = archives(20_000);
    for (int n = 2; n <= 12; n += 5) {
      Ring before = new Ring(members(n), Ring.DEFAULT_VIRTUAL_NODES);
      Ring after = new Ring(members(n + 1), Ring.DEFAULT_VIRTUAL_NODES);
      int moved = 0;
      for (String archive : archives) {
        RingMember was = before.owner(archive);
        RingMember now = after.owner(archive);
        if (!was.equals(now)) {
          moved++;
          assertEquals("s" + n, now.id(), "an archive moved between old servers");
        }
      }
      double expected = archives.size() / (double) (n + 1);
      assertTrue(
          Math.abs(moved - expected) < 0.15 * expected,
          n + " servers: moved " + moved + ", expected about " + expected);
    }
  }

  @Test
  void noServerCarriesMoreThanOnePointTwoTimesTheMeanFrom10To100Servers() {
    List<String> archives = archives(200_000);
    for (int n : new int[] {10, 25, 50, 100}) {
      Ring ring = new Ring(members(n), Ring.DEFAULT_VIRTUAL_NODES);
      Map<String, Integer> load = new HashMap<>();
      for (String archive : archives) {
        load.merge(ring.owner(archive).id(), 1, Integer::sum);
      }
      double mean = archives.size() / (double) n;
      int max = load.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
      assertTrue(max <= 1.2 * mean, n + " servers: max " + max + ", mean " + mean);
    }
  }

  @Test
  void ringFilesAreReadAndBadOnesSayWhere(@TempDir Path dir) throws Exception {
    Path good = dir.resolve("servers.txt");
    Files.writeString(good, "# the ring\ns1 10.0.0.1:8080\n\ns2   10.0.0.2:8080\n");
    Ring ring = Ring.read(good);
    assertEquals(List.of("s1", "s2"), ring.members().stream().map(RingMember::id).toList());
    Path bad = dir.resolve("bad.txt");
    Files.writeString(bad, "s1 10.0.0.1:8080\ns2 10.0.0.2\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ring.read(bad));
    assertTrue(e.getMessage().startsWith(bad + ":2: "), e.getMessage());
    Files.writeString(bad, "s1 10.0.0.1:8080\ns1 10.0.0.2:8080\n");
    e = assertThrows(IllegalArgumentException.class, () -> Ring.read(bad));
    assertTrue(e.getMessage().contains("'s1' appears twice"), e.getMessage());
  }
}
