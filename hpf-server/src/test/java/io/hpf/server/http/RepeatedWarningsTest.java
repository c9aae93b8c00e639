package io.hpf.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A warning repeated within its interval is said once, then again with how many times it came. */
class RepeatedWarningsTest {
  private static final long MINUTE = 60_000_000_000L;

  @Test
  void aDamagedEntryAskedForAgainAndAgainIsLoggedOncePerInterval() {
    AtomicLong clock = new AtomicLong(1_000);
    RepeatedWarnings warnings = new RepeatedWarnings(MINUTE, clock::get);
    String damaged = "archive 'a' entry 'x': part-00000001.hpfp at offset 16: checksum mismatch";
    assertEquals(damaged, warnings.line(damaged));
    for (int i = 0; i < 9_999; i++) {
      clock.addAndGet(1_000_000); // 10,000 requests within 10 s
      assertNull(warnings.line(damaged));
    }
    assertEquals("another", warnings.line("another"), "other warnings are their own");
    clock.addAndGet(MINUTE);
    assertEquals(damaged + " (9999 more times since it was last logged)", warnings.line(damaged));
    assertNull(warnings.line(damaged));
  }

  @Test
  void aFloodOfDistinctWarningsKeepsMemoryBounded() {
    AtomicLong clock = new AtomicLong();
    RepeatedWarnings warnings = new RepeatedWarnings(MINUTE, clock::get);
    for (int i = 0; i < 3 * RepeatedWarnings.MAX_KEYS; i++) {
      assertEquals("w" + i, warnings.line("w" + i));
      assertTrue(warnings.remembered() <= RepeatedWarnings.MAX_KEYS, "remembered at " + i);
    }
  }
}
