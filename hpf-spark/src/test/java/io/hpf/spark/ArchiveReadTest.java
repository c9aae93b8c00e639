package io.hpf.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.ModelArchive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DataFrame of archives against their models: every column of every entry. */
class ArchiveReadTest {
  @TempDir static Path dir;
  private static SparkSession spark;
  private static final Map<String, ModelArchive> models = new HashMap<>();

  @BeforeAll
  static void writeArchives() throws Exception {
    spark = SharedSpark.session();
    for (int i = 0; i < 3; i++) {
      Path archive = dir.resolve("logs-" + i + ".hpf");
      try (LocalStorage storage = LocalStorage.createDirectories(archive)) {
        models.put(archive.getFileName().toString(), ModelArchive.write(storage, 400, i));
      }
    }
    Files.createDirectories(dir.resolve("not-an-archive"));
  }

  @Test
  void theDataFrameOfSeveralArchivesIsTheirModels() {
    List<Row> rows =
        spark
            .read()
            .format("hpf")
            .load(dir.resolve("logs-*.hpf").toString())
            .select("path", "name", "length", "modificationTime", "content", "attributes")
            .collectAsList();
    int expected = models.values().stream().mapToInt(m -> m.entries.size()).sum();
    assertEquals(expected, rows.size());
    assertRowsAreInTheModels(rows);
  }

  /** Each row (all six columns, in schema order) is its archive's model entry. */
  private static void assertRowsAreInTheModels(List<Row> rows) {
    for (Row r : rows) {
      String path = r.getString(0);
      String name = r.getString(1);
      String archive = path.substring(0, path.length() - name.length() - 1);
      assertTrue(archive.startsWith("file:/"), path);
      ModelArchive model = models.get(archive.substring(archive.lastIndexOf('/') + 1));
      assertNotNull(model, "archive of " + path);
      ModelArchive.Entry e = model.entries.get(name);
      assertNotNull(e, path);
      assertEquals(e.content().length, r.getLong(2), path);
      assertEquals(e.mtimeMillis(), ((Timestamp) r.get(3)).getTime(), path);
      assertArrayEquals(e.content(), (byte[]) r.get(4), path);
      assertEquals(e.attributes(), r.getJavaMap(5), path);
    }
  }

  @Test
  void lookupsByNameInSeveralArchivesAreTheirModels() {
    // Every third name ever written (some since deleted or replaced) and names never written.
    Set<String> asked = new HashSet<>(List.of("no-such-name", "../x"));
    for (int i = 0; i < models.size(); i++) {
      List<String> written = new ArrayList<>(ArchiveModel.random(400, i).keySet());
      for (int n = 0; n < written.size(); n += 3) {
        asked.add(written.get(n));
      }
    }
    long expected = 0;
    for (ModelArchive m : models.values()) {
      expected += asked.stream().filter(m.entries::containsKey).count();
    }
    for (long driver : new long[] {0, 64 << 20}) { // read by tasks, then by the driver
      List<Row> rows =
          spark
              .read()
              .format("hpf")
              .option("driverLookupBytes", driver)
              .load(dir.resolve("logs-*.hpf").toString())
              .where(functions.col("name").isin(asked.toArray()))
              .select("path", "name", "length", "modificationTime", "content", "attributes")
              .collectAsList();
      assertEquals(expected, rows.size(), "driverLookupBytes " + driver);
      assertRowsAreInTheModels(rows);
    }
  }

  @Test
  void severalPathsAreSeveralArchives() {
    long expected =
        (long) models.get("logs-0.hpf").entries.size() + models.get("logs-2.hpf").entries.size();
    long count =
        spark
            .read()
            .format("hpf")
            .load(dir.resolve("logs-0.hpf").toString(), dir.resolve("logs-2.hpf").toString())
            .count();
    assertEquals(expected, count);
  }

  @Test
  void countReadsTheCatalogsOnly() throws Exception {
    long expected = models.values().stream().mapToInt(m -> m.entries.size()).sum();
    assertEquals(
        expected, spark.read().format("hpf").load(dir.resolve("logs-*.hpf").toString()).count());
    assertTrue(expected > 0);
  }
}
