package io.hpf.crash;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A deterministic sequence of archive changes, the same in the writer process and in the test that
 * kills it: step k adds (or replaces) and deletes names chosen from the model after step k-1, or
 * compacts. Content is a pure function of the name and the step that wrote it, so any byte read
 * back can be checked.
 */
final class CrashScenario {
  enum Kind {
    ADD,
    REPLACE,
    DELETE,
    COMPACT,
    RECLAIM
  }

  record Step(int number, Kind kind, Map<String, byte[]> adds, List<String> deletes) {}

  private final List<Step> steps = new ArrayList<>();
  private final List<TreeMap<String, byte[]>> models = new ArrayList<>();

  CrashScenario(long seed, int count) {
    SplittableRandom random = new SplittableRandom(seed);
    TreeMap<String, byte[]> model = new TreeMap<>();
    models.add(new TreeMap<>(model)); // before step 1: the empty archive
    for (int k = 1; k <= count; k++) {
      int roll = random.nextInt(20);
      Kind kind =
          model.size() < 20 || roll < 10
              ? Kind.ADD
              : roll < 13
                  ? Kind.REPLACE
                  : roll < 17 ? Kind.DELETE : roll < 19 ? Kind.COMPACT : Kind.RECLAIM;
      Map<String, byte[]> adds = new LinkedHashMap<>();
      List<String> deletes = new ArrayList<>();
      List<String> names = new ArrayList<>(model.keySet());
      if (kind == Kind.ADD) {
        for (int i = 0, n = 1 + random.nextInt(40); i < n; i++) {
          String name = "s" + k + "/f" + i;
          adds.put(name, content(name, k, random.nextInt(4000)));
        }
      } else if (kind == Kind.REPLACE) {
        for (int i = 0, n = 1 + random.nextInt(10); i < n; i++) {
          String name = names.get(random.nextInt(names.size()));
          adds.put(name, content(name, k, random.nextInt(4000)));
        }
      } else if (kind == Kind.DELETE) {
        for (int i = 0, n = 1 + random.nextInt(10); i < n && !names.isEmpty(); i++) {
          deletes.add(names.remove(random.nextInt(names.size())));
        }
      }
      model.putAll(adds);
      deletes.forEach(model::remove);
      steps.add(new Step(k, kind, adds, deletes));
      models.add(new TreeMap<>(model));
    }
  }

  static byte[] content(String name, int step, int length) {
    byte[] seed = (name + "@" + step + "#").getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[length];
    for (int i = 0; i < length; i++) {
      out[i] = (byte) (seed[i % seed.length] + i / seed.length);
    }
    return out;
  }

  List<Step> steps() {
    return steps;
  }

  /** The archive's content after step k (0: before the first step). */
  TreeMap<String, byte[]> modelAfter(int k) {
    return models.get(k);
  }
}
