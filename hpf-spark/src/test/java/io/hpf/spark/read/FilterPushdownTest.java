package io.hpf.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.internal.manifest.Section;
import io.hpf.spark.SharedSpark;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ModelArchive;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every filter the source takes returns the rows Spark returns evaluating it itself; metadata
 * queries read no part file; name lookups read no catalog.
 */
class FilterPushdownTest {
  @TempDir static Path dir;
  private static SparkSession spark;
  private static ModelArchive model;
  private static Path archive;
  private static Dataset<Row> hpf;
  private static Dataset<Row> plain;

  @BeforeAll
  static void writeArchive() throws Exception {
    spark = SharedSpark.session();
    archive = dir.resolve("a.hpf");
    try (LocalStorage storage = LocalStorage.createDirectories(archive)) {
      model = ModelArchive.write(storage, 600, 42);
    }
    hpf = spark.read().format("hpf").load(archive.toString());
    // The same rows in a plain local relation: there Spark evaluates every filter itself.
    plain = spark.createDataFrame(hpf.collectAsList(), hpf.schema());
  }

  private static TreeSet<String> names(Dataset<Row> df) {
    TreeSet<String> names = new TreeSet<>();
    for (Row r : df.select("name").collectAsList()) {
      assertTrue(names.add(r.getString(0)), "twice: " + r.getString(0));
    }
    return names;
  }

  private static String some(int i) {
    return new ArrayList<>(model.entries.keySet()).get(i).replace("'", "\\'");
  }

  @Test
  void pushedFiltersReturnWhatSparkReturns() {
    String first = some(0);
    String mid = some(300);
    String prefix = some(100).substring(0, 3);
    String path = archive.toUri().toString().replaceAll("/$", "").replace("file:///", "file:/");
    List<String> pushed =
        List.of(
            "name = '" + mid + "'",
            "name in ('" + first + "', '" + mid + "', 'no such name')",
            "name like '" + prefix + "%'",
            "name like '%-1%'",
            "name like '%.log'",
            "startswith(name, '" + prefix + "') and length > 1000",
            "length > 2000",
            "length <= 10 or length >= 30000",
            "not (length between 100 and 2000)",
            "length in (0, 1, 2, 3)",
            "modificationTime > timestamp '2020-06-01 00:00:00'",
            "modificationTime <= timestamp '2018-01-01 12:00:00.5' and length < 500",
            "not name = '" + first + "'",
            "path = '" + path + "/" + mid + "'",
            "name is not null",
            "name = '" + mid + "' and length > 0");
    for (String filter : pushed) {
      Dataset<Row> df = hpf.filter(filter);
      assertEquals(names(plain.filter(filter)), names(df), filter);
      String plan = df.queryExecution().executedPlan().toString();
      assertFalse(plan.contains("Filter "), "Spark filtered again for " + filter + ":\n" + plan);
    }
  }

  @Test
  void countsAreAnsweredOnTheDriverWithTheRowsSparkCounts() {
    String mid = some(300);
    List<String> filters =
        List.of(
            "true",
            "name like '" + some(100).substring(0, 3) + "%'",
            "name in ('" + some(0) + "', '" + mid + "', 'no such name')",
            "length > 2000 or name = '" + mid + "'",
            "modificationTime > timestamp '2020-06-01 00:00:00'");
    for (String filter : filters) {
      Dataset<Row> counted = hpf.filter(filter).agg(functions.count("*"), functions.count("name"));
      Row expected =
          plain.filter(filter).agg(functions.count("*"), functions.count("name")).first();
      assertEquals(expected, counted.first(), filter);
      String plan = counted.queryExecution().executedPlan().toString();
      assertTrue(plan.contains("LocalTableScan") && !plan.contains("BatchScan"), filter + plan);
      assertEquals(plain.filter(filter).count(), hpf.filter(filter).count(), filter);
    }
    // A filter Spark keeps, a distinct count, a count of an expression, a grouping: Spark counts.
    for (Column c :
        List.of(
            functions.countDistinct("length"),
            functions.count(functions.when(functions.col("length").gt(1000), 1)))) {
      assertEquals(plain.agg(c).first(), hpf.agg(c).first(), c.toString());
    }
    String kept = "upper(name) like '%A%'";
    assertEquals(plain.filter(kept).count(), hpf.filter(kept).count());
    assertTrue(
        hpf.filter(kept)
            .groupBy()
            .count()
            .queryExecution()
            .executedPlan()
            .toString()
            .contains("BatchScan"));
    assertEquals(plain.groupBy("length").count().count(), hpf.groupBy("length").count().count());
  }

  @Test
  void filtersSparkKeepsStillReturnWhatSparkReturns() {
    for (String filter :
        List.of(
            "attributes['kind'] = 'k1'",
            "upper(name) like '%A%'",
            "name > 'm'",
            "length % 2 = 0 and name like 'a%'",
            "size(attributes) = 0")) {
      assertEquals(names(plain.filter(filter)), names(hpf.filter(filter)), filter);
    }
  }

  @Test
  void theSelectOptionEvaluatesAttributesOnMetadata() {
    Dataset<Row> selected =
        spark.read().format("hpf").option("select", "attr:kind=k1").load(archive.toString());
    assertEquals(names(plain.filter("attributes['kind'] = 'k1'")), names(selected));
  }

  @Test
  void metadataQueriesReadNoPartFile() throws Exception {
    // A read of a part fails now.
    Path copy = copyZeroing(archive, "no-parts.hpf", FileNames::isPartFileName);
    Dataset<Row> df = spark.read().format("hpf").load(copy.toString());
    assertEquals(model.entries.size(), df.count());
    assertEquals(
        names(plain.filter("length > 1000")), names(df.filter("length > 1000").select("name")));
    assertEquals(
        plain.groupBy("attributes").count().count(),
        df.select("attributes", "modificationTime").groupBy("attributes").count().count());
    Exception e = assertThrows(Exception.class, () -> df.select("content").collectAsList());
    // The first task to fail names its part (any of the zeroed ones).
    assertTrue(String.valueOf(rootMessage(e)).contains("no-parts.hpf/part-"), rootMessage(e));
  }

  @Test
  void nameLookupsReadNoCatalog() throws Exception {
    // A listing fails now.
    Path copy = copyZeroing(archive, "no-catalogs.hpf", name -> false);
    zeroCatalogs(copy);
    assertThrows(Exception.class, spark.read().format("hpf").load(copy.toString())::count, "zeros");
    // Every 20th name: entries far apart in their parts.
    List<String> wanted = new ArrayList<>();
    int i = 0;
    for (String name : model.entries.keySet()) {
      if (i++ % 20 == 0) {
        wanted.add(name);
      }
    }
    List<String> asked = new ArrayList<>(wanted);
    for (i = 0; asked.size() < 1000; i++) {
      asked.add("missing-" + i);
    }
    // Read by tasks, then by the driver.
    for (long driver : new long[] {0, ReadOptions.DEFAULT_DRIVER_LOOKUP_BYTES}) {
      Dataset<Row> df =
          spark.read().format("hpf").option("driverLookupBytes", driver).load(copy.toString());
      Dataset<Row> found = df.where(df.col("name").isin(asked.toArray())).select("name", "content");
      List<Row> rows = found.collectAsList();
      assertEquals(wanted.size(), rows.size());
      for (Row r : rows) {
        assertTrue(
            java.util.Arrays.equals(
                model.entries.get(r.getString(0)).content(), (byte[]) r.get(1)));
      }
    }
  }

  @Test
  void smallLookupsRunNoJobAndLargeOnesRunTasks() {
    List<String> names = new ArrayList<>(model.entries.keySet());
    List<String> asked = new ArrayList<>(List.of("no such name"));
    for (int i = 0; i < names.size(); i += 7) {
      asked.add(names.get(i));
    }
    Column in = functions.col("name").isin(asked.toArray());
    long total = 0;
    for (String name : asked) {
      total += model.entries.containsKey(name) ? model.entries.get(name).content().length : 0;
    }
    List<String> expected = rowStrings(plain.where(in).collectAsList());
    for (long driver : new long[] {total, total - 1}) {
      Dataset<Row> df =
          spark
              .read()
              .format("hpf")
              .option("driverLookupBytes", driver)
              .load(archive.toString())
              .where(in);
      String group = "lookup-" + driver;
      spark.sparkContext().setJobGroup(group, group, false);
      List<Row> rows = df.collectAsList();
      spark.sparkContext().clearJobGroup();
      assertEquals(expected, rowStrings(rows), "driverLookupBytes " + driver);
      String plan = df.queryExecution().executedPlan().toString();
      int jobs = spark.sparkContext().statusTracker().getJobIdsForGroup(group).length;
      if (driver == total) {
        assertTrue(plan.contains("LocalTableScan"), plan);
        assertEquals(0, jobs, "a lookup within the budget runs no job");
      } else {
        assertTrue(plan.contains("BatchScan"), "one byte over the budget: tasks read\n" + plan);
        assertTrue(jobs > 0, "jobs: " + jobs);
      }
    }
  }

  /** Every column of each row as text (content as its bytes), sorted: rows compared as sets. */
  private static List<String> rowStrings(List<Row> rows) {
    List<String> strings = new ArrayList<>();
    for (Row r : rows) {
      StringBuilder s = new StringBuilder();
      for (int c = 0; c < r.length(); c++) {
        Object v = r.get(c);
        s.append(v instanceof byte[] b ? java.util.Arrays.toString(b) : String.valueOf(v))
            .append('|');
      }
      strings.add(s.toString());
    }
    java.util.Collections.sort(strings);
    return strings;
  }

  /** Zeros the catalog section of every segment file (their lengths stay). */
  private static void zeroCatalogs(Path archive) throws Exception {
    LocalStorage storage = LocalStorage.open(archive);
    Manifest m = ManifestStore.readNewest(storage, storage.list());
    for (Manifest.SegmentRef s : m.segments()) {
      Section catalog = Section.catalog(s);
      try (FileChannel ch =
          FileChannel.open(archive.resolve(catalog.fileName()), StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.allocate((int) catalog.length()), catalog.offset());
      }
    }
  }

  /**
   * A copy of the archive whose files named as {@code zeroed} says hold zeros instead of their
   * bytes (same length: the reader checks lengths on open).
   */
  private static Path copyZeroing(Path from, String name, Predicate<String> zeroed)
      throws Exception {
    Path to = Files.createDirectories(dir.resolve(name));
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Path copy = to.resolve(f.getFileName());
        if (zeroed.test(f.getFileName().toString())) {
          Files.write(copy, new byte[(int) Files.size(f)]);
        } else {
          Files.copy(f, copy);
        }
      }
    }
    return to;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }
}
