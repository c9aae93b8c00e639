package io.hpf.server.ring;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints how evenly a ring spreads archives and how many move when a server joins, for rings of 10
 * to 100 servers: the figures docs/BENCHMARKS.md argues scaling from.
 *
 * <pre>java -cp hpf-server/target/hpf-server.jar io.hpf.server.ring.RingBalance [archives]</pre>
 */
public final class RingBalance {
  private RingBalance() {}

  public static void main(String[] args) {
    int archives = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    System.out.println("servers\tarchives\tmax/mean\tmin/mean\tmoved on join\texpected 1/(N+1)");
    for (int n : new int[] {10, 20, 50, 100}) {
      Ring ring = new Ring(members(n), Ring.DEFAULT_VIRTUAL_NODES);
      Ring grown = new Ring(members(n + 1), Ring.DEFAULT_VIRTUAL_NODES);
      Map<String, Integer> load = new HashMap<>();
      int moved = 0;
      for (int i = 0; i < archives; i++) {
        String archive = "archive-" + i;
        RingMember owner = ring.owner(archive);
        load.merge(owner.id(), 1, Integer::sum);
        if (!grown.owner(archive).equals(owner)) {
          moved++;
        }
      }
      double mean = archives / (double) n;
      int max = load.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      int min = load.values().stream().mapToInt(Integer::intValue).min().orElse(0);
      System.out.printf(
          Locale.ROOT,
          "%d\t%d\t%.3f\t%.3f\t%.4f\t%.4f%n",
          n,
          archives,
          max / mean,
          min / mean,
          moved / (double) archives,
          1.0 / (n + 1));
    }
  }

  private static List<RingMember> members(int n) {
    List<RingMember> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new RingMember("s" + i, "10.0.0." + (i + 1) + ":8080"));
    }
    return out;
  }
}
