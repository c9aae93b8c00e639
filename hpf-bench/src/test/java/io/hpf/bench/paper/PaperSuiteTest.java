package io.hpf.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpf.bench.BenchOutput;
import io.hpf.hadoop.MiniHdfs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paper suite runs end to end (on local disk at the ci scale, on a real HDFS at the smoke
 * scale) and its results are well formed: every dataset, system and measurement is there, with
 * machine, JDK, commit and command. Speed is not checked here; every byte read is (the suite fails
 * on a wrong byte).
 */
class PaperSuiteTest {
  private static final List<String> SYSTEMS =
      List.of(
          "hpf",
          "hpf-nocache",
          "hpf-lz4",
          "hpf-solid",
          "plain",
          "seqfile-record",
          "seqfile-block",
          "mapfile",
          "har");
  private static final List<String> DATASETS =
      List.of("hpf-logs", "sf-text-30k", "sf-text-1m", "tyr-32k");

  @TempDir Path temp;

  private List<JsonNode> run(String fsUri, Scale scale, Configuration conf) throws Exception {
    Path results = temp.resolve("results-" + scale.label() + ".jsonl");
    new PaperSuite(
            java.net.URI.create(fsUri),
            conf,
            scale,
            temp.resolve("work"),
            null, // the kernel tree is not installed in CI; the suite skips it
            new BenchOutput(results, "PaperSuiteTest " + scale.label()),
            System.err)
        .run();
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> rows = new ArrayList<>();
    for (String line : Files.readAllLines(results, StandardCharsets.UTF_8)) {
      rows.add(json.readTree(line));
    }
    return rows;
  }

  private static void assertWellFormed(List<JsonNode> rows, Scale scale) {
    Set<String> seen = new HashSet<>();
    for (JsonNode row : rows) {
      for (String field : List.of("benchmark", "machine", "jdk", "commit", "command", "cores")) {
        assertTrue(row.has(field), () -> "missing " + field + " in " + row);
      }
      // The tests run in a git checkout: the measured commit is recorded, not "unknown".
      assertTrue(
          row.get("commit").asText().matches("[0-9a-f]{7,40}(-dirty)?"), () -> row.toString());
      String benchmark = row.get("benchmark").asText();
      if (benchmark.equals("catalog")) {
        seen.add("catalog " + row.get("operation").asText());
        assertTrue(row.get("microsPerOperation").asDouble() > 0, row::toString);
        continue;
      }
      String key =
          benchmark
              + " "
              + row.get("dataset").asText()
              + " "
              + row.get("system").asText()
              + (row.has("kind") ? " " + row.get("kind").asText() : "");
      seen.add(key);
      if (benchmark.equals("create")) {
        assertTrue(row.get("seconds").asDouble() > 0, row::toString);
        assertTrue(row.get("nnObjects").asLong() >= 2, row::toString);
        assertTrue(row.get("bytesStored").asLong() > 0, row::toString);
      } else {
        assertTrue(row.get("microsPerOperationMedian").asDouble() > 0, row::toString);
      }
    }
    for (String dataset : DATASETS) {
      for (String system : SYSTEMS) {
        assertTrue(seen.contains("create " + dataset + " " + system), dataset + " " + system);
        for (String kind : List.of("warm-uniform", "cold-uniform", "warm-zipf", "cold-zipf")) {
          assertTrue(
              seen.contains("get " + dataset + " " + system + " " + kind),
              dataset + " " + system + " " + kind);
        }
        assertTrue(seen.contains("scan " + dataset + " " + system + " scan"), dataset + system);
      }
    }
    for (String op : List.of("write", "full-scan", "random-seek", "short-scan-30")) {
      assertTrue(seen.contains("catalog " + op), op);
    }
    long creates = rows.stream().filter(r -> r.get("benchmark").asText().equals("create")).count();
    assertEquals((long) DATASETS.size() * SYSTEMS.size() * scale.repetitions, creates);
  }

  @Test
  void smokeScaleOnLocalDisk() throws Exception {
    List<JsonNode> rows =
        run(temp.resolve("fs").toUri().toString(), Scale.SMOKE, new Configuration());
    assertWellFormed(rows, Scale.SMOKE);
  }

  /** Four minutes on 2 cores: the long profile (./scripts/test.sh -Plong). */
  @Test
  @org.junit.jupiter.api.Tag("long")
  void ciScaleOnLocalDisk() throws Exception {
    List<JsonNode> rows = run(temp.resolve("fs").toUri().toString(), Scale.CI, new Configuration());
    assertWellFormed(rows, Scale.CI);
  }

  /**
   * A minute on 2 cores, most of it HAR and MapFile on HDFS: the long profile. The default suite
   * runs the suite on local disk above, and hpf on HDFS in hpf-hadoop's conformance tests.
   */
  @Test
  @org.junit.jupiter.api.Tag("long")
  void smokeScaleOnHdfs() throws Exception {
    try (MiniHdfs hdfs = MiniHdfs.start(temp.resolve("dfs"), 1, 1)) {
      String uri = hdfs.fs().getUri() + "/bench";
      assertWellFormed(run(uri, Scale.SMOKE, hdfs.fs().getConf()), Scale.SMOKE);
    }
  }
}
