package io.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.VerifyReport;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.ProgressListener;
import io.hpf.store.Storage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Kills a real writer process (SIGKILL) at a random moment during adds, replaces, deletes and
 * compactions. After the kill: the archive opens, shows exactly the last committed step's content
 * (or the next step's, when the kill came between its commit and its "STEP" line), every committed
 * entry reads back byte for byte, and the next writer's recovery keeps that and adds only complete
 * entries the dead writer had added. Any storage: the writer process opens it from a location.
 */
public final class CrashTrials {
  public static final int STEPS = 400;

  private CrashTrials() {}

  /**
   * One trial: an empty archive in {@code storage}, a child JVM running {@code writerMain} (whose
   * arguments are {@code location}, the seed and the step count) killed {@code minKillMillis} to
   * {@code minKillMillis + 2500} ms in, then the checks.
   */
  public static void trial(
      Storage storage, String location, Class<?> writerMain, long minKillMillis, long seed)
      throws Exception {
    try (ArchiveWriter writer = ArchiveWriter.create(storage, CrashWriterMain.options(false))) {
      writer.commit();
    }
    CrashScenario scenario = new CrashScenario(seed, STEPS);
    Process child =
        new ProcessBuilder(
                javaCommand(),
                "-cp",
                System.getProperty("java.class.path"),
                writerMain.getName(),
                location,
                Long.toString(seed),
                Integer.toString(STEPS))
            .redirectErrorStream(true)
            .start();
    AtomicInteger lastStep = new AtomicInteger();
    StringBuilder otherOutput = new StringBuilder();
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                  if (line.startsWith("STEP ")) {
                    lastStep.set(Integer.parseInt(line.substring(5)));
                  } else {
                    otherOutput.append(line).append('\n');
                  }
                }
              } catch (java.io.IOException e) {
                // The child was killed.
              }
            });
    pump.start();
    // Kill after the JVM has started and some steps ran.
    long killAfter = minKillMillis + new SplittableRandom(seed).nextLong(2500);
    boolean exited = child.waitFor(killAfter, TimeUnit.MILLISECONDS);
    if (!exited) {
      // SIGKILL through the process handle: Process.destroyForcibly also closes our end of the
      // pipe, and "STEP" lines the pump had not read yet were lost (seen once: the archive was
      // two steps past the last line read). The pipe keeps what the child wrote.
      child.toHandle().destroyForcibly();
      child.waitFor();
    }
    pump.join();
    if (exited && child.exitValue() != 0) {
      fail("writer process failed on its own (seed " + seed + "):\n" + otherOutput);
    }
    int k = lastStep.get();

    int committed;
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      committed = matchingStep(reader, scenario, k, seed, otherOutput);
    }
    // The next writer recovers (breaking the dead writer's lock, as a user would be told to).
    try (ArchiveWriter writer =
        ArchiveWriter.open(
            storage,
            io.hpf.archive.model.WriterOptions.builder()
                .breakLock(true)
                .gracePeriodMillis(0)
                .build())) {
      assertTrue(writer.recovery().notes().stream().noneMatch(String::isEmpty));
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      TreeMap<String, byte[]> model = scenario.modelAfter(committed);
      Map<String, byte[]> mayAppear =
          committed < STEPS ? scenario.steps().get(committed).adds() : Map.of();
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(
            e.getValue(),
            reader.get(e.getKey()),
            "seed " + seed + ": committed entry changed or lost: " + e.getKey());
      }
      for (Iterator<EntryInfo> it = reader.list(""); it.hasNext(); ) {
        String name = it.next().name();
        if (!model.containsKey(name)) {
          assertTrue(
              mayAppear.containsKey(name),
              "seed " + seed + ": an entry that was never added appeared: " + name);
          assertArrayEquals(mayAppear.get(name), reader.get(name));
        }
      }
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), () -> "seed " + seed + ": " + report.problems());
  }

  /** The step whose model the archive shows: k, or k+1 if killed before printing it. */
  private static int matchingStep(
      ArchiveReader reader, CrashScenario scenario, int k, long seed, StringBuilder otherOutput)
      throws Exception {
    List<String> names = new ArrayList<>();
    reader.list("").forEachRemaining(e -> names.add(e.name()));
    for (int candidate : new int[] {k, k + 1}) {
      if (candidate > STEPS) {
        continue;
      }
      TreeMap<String, byte[]> model = scenario.modelAfter(candidate);
      if (names.equals(new ArrayList<>(model.keySet()))) {
        boolean same = true;
        for (Map.Entry<String, byte[]> e : model.entrySet()) {
          same &= java.util.Arrays.equals(e.getValue(), reader.get(e.getKey()));
        }
        if (same) {
          return candidate;
        }
      }
    }
    StringBuilder how = new StringBuilder();
    for (int candidate : new int[] {k, k + 1}) {
      if (candidate <= STEPS) {
        how.append("; against step ").append(candidate).append(": ");
        how.append(difference(reader, scenario.modelAfter(candidate), names));
      }
    }
    fail(
        "seed "
            + seed
            + ": after the kill the archive matches neither step "
            + k
            + " nor "
            + (k + 1)
            + " ("
            + names.size()
            + " entries"
            + how
            + "); the writer's other output: "
            + otherOutput);
    return -1;
  }

  /** How the archive differs from a model: names missing, names extra, contents changed. */
  private static String difference(
      ArchiveReader reader, TreeMap<String, byte[]> model, List<String> names) throws Exception {
    List<String> missing = new ArrayList<>(model.keySet());
    missing.removeAll(names);
    List<String> extra = new ArrayList<>(names);
    extra.removeAll(model.keySet());
    List<String> changed = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      if (names.contains(e.getKey())
          && !java.util.Arrays.equals(e.getValue(), reader.get(e.getKey()))) {
        changed.add(e.getKey());
      }
    }
    return missing.size()
        + " missing "
        + missing.subList(0, Math.min(3, missing.size()))
        + ", "
        + extra.size()
        + " extra "
        + extra.subList(0, Math.min(3, extra.size()))
        + ", "
        + changed.size()
        + " changed "
        + changed.subList(0, Math.min(3, changed.size()));
  }

  private static String javaCommand() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
