package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DirectoryFilterTest {
  @Test
  void everyDirectoryIsKnownAndFewOtherNamesAre() {
    Random random = new Random(2);
    List<EntryInfo> entries = new ArrayList<>();
    List<String> directories = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String dir = "d" + random.nextInt(3000) + "/s" + random.nextInt(5);
      directories.add(dir);
      entries.add(EntryInfo.tombstone(dir + "/f" + i)); // only the name is read
    }
    DirectoryFilter filter = new DirectoryFilter(entries.size());
    assertFalse(filter.surelyNotDirectory("anything"), "nothing is sure before it is filled");
    filter.fill(entries.iterator());
    filter.addParentsOf("late/added/name");
    for (String dir : directories) {
      assertFalse(filter.surelyNotDirectory(dir), dir);
      assertFalse(filter.surelyNotDirectory(dir.substring(0, dir.indexOf('/'))), dir);
    }
    assertFalse(filter.surelyNotDirectory("late/added"));
    assertFalse(filter.surelyNotDirectory("late"));
    int sure = 0;
    for (int i = 0; i < 10_000; i++) {
      sure += filter.surelyNotDirectory("d1/s1/f" + i) ? 1 : 0;
    }
    assertTrue(sure > 9_800, "false positives: " + (10_000 - sure));
  }
}
