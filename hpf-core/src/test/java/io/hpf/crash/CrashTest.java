package io.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpf.store.LocalStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Crash trials (see {@link CrashTrials}) on local disk. */
class CrashTest {
  @TempDir Path temp;

  @Test
  void writerKilledAtRandomMomentsLosesNothingCommitted() throws Exception {
    runTrials(3, 1);
  }

  @Test
  @Tag("long")
  void hundredsOfKills() throws Exception {
    runTrials(120, 1000);
  }

  private void runTrials(int trials, long firstSeed) throws Exception {
    for (int t = 0; t < trials; t++) {
      long seed = firstSeed + t;
      Path dir = temp.resolve("crash-" + seed + ".hpf");
      CrashTrials.trial(
          LocalStorage.createDirectories(dir), dir.toString(), CrashWriterMain.class, 500, seed);
    }
  }

  @Test
  void scenarioIsDeterministic() {
    CrashScenario a = new CrashScenario(5, 50);
    CrashScenario b = new CrashScenario(5, 50);
    assertEquals(a.modelAfter(50).keySet(), b.modelAfter(50).keySet());
  }
}
