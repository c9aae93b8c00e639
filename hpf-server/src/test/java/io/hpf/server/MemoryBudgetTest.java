package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.WriterOptions;
import io.hpf.server.client.HpfHttpClient;
import io.hpf.server.testing.TestServer;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * More archives than the memory budget holds, asked for with Zipf popularity: the popular ones stay
 * open, the others are closed and reopened on demand, memory stays within the budget, every answer
 * is right; readers outside the hot set that sit idle are closed.
 */
class MemoryBudgetTest {
  @TempDir Path root;

  List<TreeMap<String, byte[]>> writeArchives(int n) throws Exception {
    List<TreeMap<String, byte[]>> models = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      TreeMap<String, byte[]> model = ArchiveModel.random(100, i);
      TestArchives.write(root.resolve("a" + i + ".hpf"), model, WriterOptions.builder().build(), 1);
      models.add(model);
    }
    return models;
  }

  /** Zipf ranks with exponent {@code s} over {@code n}. */
  static int zipf(SplittableRandom random, double[] cumulative) {
    double u = random.nextDouble() * cumulative[cumulative.length - 1];
    for (int i = 0; i < cumulative.length; i++) {
      if (u <= cumulative[i]) {
        return i;
      }
    }
    return cumulative.length - 1;
  }

  @Test
  void popularArchivesStayOpenWithinTheBudget() throws Exception {
    int n = 40;
    List<TreeMap<String, byte[]>> models = writeArchives(n);
    // What one open reader counts, measured on a server without a budget.
    long perReader;
    try (HpfServer probe = TestServer.start(TestServer.options(root))) {
      HpfHttpClient.of(TestServer.base(probe)).get("a0", models.get(0).firstKey());
      perReader = probe.readers().memory();
    }
    ServerOptions o = TestServer.options(root);
    o.memoryBytes = 8 * perReader + perReader / 2;
    o.hotK = 8;
    try (HpfServer server = TestServer.start(o)) {
      HpfHttpClient client = HpfHttpClient.of(TestServer.base(server));
      double[] cumulative = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += 1 / Math.pow(i + 1, 1.2);
        cumulative[i] = sum;
      }
      SplittableRandom random = new SplittableRandom(3);
      for (int r = 0; r < 2000; r++) {
        int a = zipf(random, cumulative);
        TreeMap<String, byte[]> model = models.get(a);
        List<String> names = new ArrayList<>(model.keySet());
        String name = names.get(random.nextInt(names.size()));
        assertArrayEquals(model.get(name), client.get("a" + a, name));
        assertTrue(server.readers().memory() <= o.memoryBytes, "over the budget");
      }
      long hits = server.metrics().readerHits.sum();
      long misses = server.metrics().readerMisses.sum();
      double hitRate = hits / (double) (hits + misses);
      assertTrue(server.metrics().readerEvictions.sum() > 0, "nothing was evicted");
      // The top 8 of Zipf(1.2) over 40 draw about 78% of requests; they stay open.
      assertTrue(hitRate > 0.65, "hit rate " + hitRate);
      for (int a = 0; a < 3; a++) {
        assertTrue(server.readers().isOpen("a" + a), "a" + a + " is hot but closed");
      }
    }
  }

  @Test
  void idleArchivesOutsideTheHotSetAreClosed() throws Exception {
    List<TreeMap<String, byte[]>> models = writeArchives(4);
    AtomicLong nanos = new AtomicLong();
    ServerOptions o = TestServer.options(root);
    o.hotK = 2;
    o.idleReaderMillis = 200;
    o.nanoClock = nanos::get; // time moves only when the test says
    try (HpfServer server = TestServer.start(o)) {
      HpfHttpClient client = HpfHttpClient.of(TestServer.base(server));
      client.get("a3", models.get(3).firstKey());
      nanos.addAndGet(150_000_000L);
      for (int i = 0; i < 5; i++) {
        client.get("a0", models.get(0).firstKey());
        client.get("a1", models.get(1).firstKey());
      }
      server.readers().sweep();
      assertTrue(server.readers().isOpen("a3"), "closed before its idle time");
      nanos.addAndGet(100_000_000L); // a3 idle 250 ms, a0 and a1 100 ms
      server.readers().sweep();
      assertFalse(server.readers().isOpen("a3"), "an idle cold archive stayed open");
      assertTrue(server.readers().isOpen("a0"));
      assertTrue(server.readers().isOpen("a1"));
      nanos.addAndGet(1_000_000_000L); // idle, but hot: they stay
      server.readers().sweep();
      assertTrue(server.readers().isOpen("a0"), "a hot archive was closed for being idle");
      assertArrayEquals(
          models.get(3).firstEntry().getValue(), client.get("a3", models.get(3).firstKey()));
    }
  }
}
