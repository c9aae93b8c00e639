package io.hpf.spark.write;

import static org.apache.spark.sql.functions.callUDF;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.WriterOptions;
import io.hpf.spark.SharedSpark;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes of DataFrames into archives: modes, names, failures; each checked against a model. */
class ArchiveWriteTest {
  @TempDir static Path dir;
  private static SparkSession spark;
  private static final StructType SCHEMA =
      new StructType()
          .add("name", DataTypes.StringType)
          .add("content", DataTypes.BinaryType)
          .add("modificationTime", DataTypes.TimestampType)
          .add("attributes", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType));
  private static int serial;

  @BeforeAll
  static void start() {
    spark = SharedSpark.session();
    spark
        .udf()
        .register("failFirstAttemptOfPartition1", new FailFirstAttempt(), DataTypes.StringType);
    spark.udf().register("failPartition1", new FailAlways(), DataTypes.StringType);
  }

  // UDFs as classes, not lambdas: a serializable lambda's generated deserializer switches on a
  // string's hashCode, which the build forbids.

  /** Fails the first attempt of partition 1's task. */
  private static final class FailFirstAttempt implements UDF1<String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(String name) {
      TaskContext task = TaskContext.get();
      if (task.partitionId() == 1 && task.attemptNumber() == 0) {
        throw new IllegalStateException("injected failure");
      }
      return name;
    }
  }

  /** Fails every attempt of partition 1's task. */
  private static final class FailAlways implements UDF1<String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(String name) {
      if (TaskContext.get().partitionId() == 1) {
        throw new IllegalStateException("injected failure, every attempt");
      }
      return name;
    }
  }

  /** Counts the rows it sees. */
  private static final class CountRows implements UDF1<String, String> {
    private static final long serialVersionUID = 1L;
    private final LongAccumulator seen;

    CountRows(LongAccumulator seen) {
      this.seen = seen;
    }

    @Override
    public String call(String name) {
      seen.add(1);
      return name;
    }
  }

  private static Path fresh() {
    return dir.resolve("w" + (serial++) + ".hpf");
  }

  private static TreeMap<String, byte[]> model(String prefix, int count, long seed) {
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < count; i++) {
      model.put(prefix + i, ArchiveModel.content(random, random.nextInt(0, 5000)));
    }
    return model;
  }

  private static Dataset<Row> frame(TreeMap<String, byte[]> model, int partitions) {
    List<Row> rows = new ArrayList<>();
    int i = 0;
    for (var e : model.entrySet()) {
      rows.add(
          RowFactory.create(
              e.getKey(),
              e.getValue(),
              new Timestamp(1_700_000_000_000L + i),
              i % 2 == 0 ? Map.of("n", Integer.toString(i)) : Map.of()));
      i++;
    }
    return spark.createDataFrame(rows, SCHEMA).repartition(partitions);
  }

  /** The archive's entries, read back with the core library. */
  private static TreeMap<String, byte[]> read(Path archive) throws Exception {
    TreeMap<String, byte[]> read = new TreeMap<>();
    try (LocalStorage storage = LocalStorage.open(archive);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      for (var it = reader.list(""); it.hasNext(); ) {
        var row = it.next();
        read.put(row.name(), reader.get(row));
      }
    }
    return read;
  }

  private static long generation(Path archive) throws Exception {
    try (LocalStorage storage = LocalStorage.open(archive);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      return reader.manifest().generation();
    }
  }

  private static void assertSameEntries(TreeMap<String, byte[]> expected, Path archive)
      throws Exception {
    TreeMap<String, byte[]> actual = read(archive);
    assertEquals(expected.keySet(), actual.keySet());
    for (var e : expected.entrySet()) {
      assertArrayEquals(e.getValue(), actual.get(e.getKey()), e.getKey());
    }
    assertFalse(Files.exists(archive.resolve("_hpf_jobs")), "staging left behind");
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }

  @Test
  void errorIfExistsCreatesThenRefuses() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> model = model("a/", 500, 1);
    frame(model, 4).write().format("hpf").save(archive.toString());
    assertSameEntries(model, archive);
    // Every column came through: mtime and attributes of one entry.
    try (LocalStorage storage = LocalStorage.open(archive);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      var row = reader.stat(model.firstKey());
      assertEquals(1_700_000_000_000L, row.mtimeMillis());
      assertEquals(Map.of("n", "0"), row.attributes());
    }
    long generation = generation(archive);
    Exception e =
        assertThrows(
            Exception.class, () -> frame(model, 2).write().format("hpf").save(archive.toString()));
    assertTrue(rootMessage(e).contains("the archive exists"), rootMessage(e));
    frame(model("z/", 10, 9), 1).write().format("hpf").mode("ignore").save(archive.toString());
    assertEquals(generation, generation(archive));
    assertSameEntries(model, archive);
  }

  @Test
  void appendAddsInOneCommitAndRefusesExistingNamesUnlessReplacing() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> model = model("a/", 200, 2);
    frame(model, 2).write().format("hpf").save(archive.toString());
    TreeMap<String, byte[]> more = model("b/", 300, 3);
    long before = generation(archive);
    frame(more, 3).write().format("hpf").mode("append").save(archive.toString());
    assertEquals(before + 1, generation(archive), "one commit");
    model.putAll(more);
    assertSameEntries(model, archive);

    TreeMap<String, byte[]> clash = model("b/", 5, 4); // b/0..b/4 exist
    Exception e =
        assertThrows(
            Exception.class,
            () -> frame(clash, 2).write().format("hpf").mode("append").save(archive.toString()));
    assertTrue(rootMessage(e).contains("b/"), rootMessage(e));
    assertSameEntries(model, archive);

    frame(clash, 2)
        .write()
        .format("hpf")
        .mode("append")
        .option("replace", "true")
        .save(archive.toString());
    model.putAll(clash);
    assertSameEntries(model, archive);
  }

  /**
   * A write that asks for a zstd level makes it the archive's (format version 6); a later append
   * compresses at it, as `hpf add` does; a level without zstd fails the write.
   */
  @Test
  void aLevelAskedForBecomesTheArchivesAndAppendsKeepIt() throws Exception {
    Path archive = fresh();
    byte[] text = ArchiveModel.words(7, 30_000);
    long atLevel12 = com.github.luben.zstd.Zstd.compress(text, 12).length;
    assertTrue(atLevel12 < com.github.luben.zstd.Zstd.compress(text, 3).length, "levels differ");
    frame(new TreeMap<>(Map.of("first", text)), 1)
        .write()
        .format("hpf")
        .option("level", "12")
        .save(archive.toString());
    frame(new TreeMap<>(Map.of("second", text)), 1)
        .write()
        .format("hpf")
        .mode("append")
        .save(archive.toString());
    try (LocalStorage storage = LocalStorage.open(archive);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(12, reader.manifest().writerSettings().zstdLevel());
      for (String name : List.of("first", "second")) {
        // Tasks write without a dictionary: the stored frame is zstd's own at that level.
        assertEquals(atLevel12, reader.stat(name).storedLength(), name);
        assertArrayEquals(text, reader.get(name), name);
      }
    }
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                frame(new TreeMap<>(Map.of("third", text)), 1)
                    .write()
                    .format("hpf")
                    .mode("append")
                    .option("codec", "lz4")
                    .option("level", "9")
                    .save(archive.toString()));
    assertTrue(
        e.getMessage().contains("solid packing and zstd levels need the zstd codec, not lz4"),
        e.getMessage());
  }

  @Test
  void tasksStoreEntriesAsTheArchivesWritersDoUnlessTheWriteNamesACodec() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> text = new TreeMap<>();
    for (int i = 0; i < 30; i++) {
      text.put(
          "t/" + i,
          ("compress me, line " + i + ", ")
              .repeat(80)
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    frame(text, 2).write().format("hpf").option("codec", "none").save(archive.toString());
    TreeMap<String, byte[]> more = new TreeMap<>();
    for (var e : text.entrySet()) {
      more.put("u" + e.getKey().substring(1), e.getValue());
    }
    frame(more, 2).write().format("hpf").mode("append").save(archive.toString());
    try (LocalStorage storage = LocalStorage.open(archive);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(io.hpf.archive.model.Codec.NONE, reader.manifest().writerSettings().codec());
      for (String name : List.of("t/0", "u/0", "u/29")) {
        assertEquals(io.hpf.archive.model.Codec.NONE, reader.stat(name).codec(), name);
      }
    }
    TreeMap<String, byte[]> lz4 = new TreeMap<>();
    lz4.put("v/0", text.get("t/0"));
    frame(lz4, 1)
        .write()
        .format("hpf")
        .mode("append")
        .option("codec", "lz4")
        .save(archive.toString());
    try (LocalStorage storage = LocalStorage.open(archive);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(io.hpf.archive.model.Codec.LZ4, reader.stat("v/0").codec());
      assertEquals(io.hpf.archive.model.Codec.LZ4, reader.manifest().writerSettings().codec());
    }
    text.putAll(more);
    text.putAll(lz4);
    assertSameEntries(text, archive);
  }

  @Test
  void overwriteLeavesOnlyTheNewEntries() throws Exception {
    Path archive = fresh();
    frame(model("old/", 300, 5), 2).write().format("hpf").save(archive.toString());
    TreeMap<String, byte[]> fresh = model("new/", 100, 6);
    frame(fresh, 3).write().format("hpf").mode("overwrite").save(archive.toString());
    assertSameEntries(fresh, archive);
    assertEquals(fresh.size(), spark.read().format("hpf").load(archive.toString()).count());
  }

  @Test
  void aNameInTwoTasksFailsTheWriteNamingIt() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> model = model("a/", 50, 7);
    frame(model, 1).write().format("hpf").save(archive.toString());
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rows.add(RowFactory.create(i == 39 ? "dup" : "x/" + i, new byte[] {1}, null, null));
    }
    rows.add(RowFactory.create("dup", new byte[] {2}, null, null));
    Dataset<Row> twice = spark.createDataFrame(rows, SCHEMA).repartition(4);
    Exception e =
        assertThrows(
            Exception.class,
            () -> twice.write().format("hpf").mode("append").save(archive.toString()));
    assertTrue(rootMessage(e).contains("dup"), rootMessage(e));
    assertSameEntries(model, archive);
  }

  /** Appends {@code rows} in three tasks, which must fail; the message of its root cause. */
  private String failedAppend(List<Row> rows, Path archive) {
    Dataset<Row> df = spark.createDataFrame(rows, SCHEMA).repartition(3);
    Exception e =
        assertThrows(
            Exception.class,
            () -> df.write().format("hpf").mode("append").save(archive.toString()));
    return rootMessage(e);
  }

  @Test
  void aNameThatWouldBeAFileAndADirectoryFailsTheWriteNamingBoth() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> model = model("a/", 20, 9);
    frame(model, 1).write().format("hpf").save(archive.toString());
    String file = model.firstKey();
    for (String[] names :
        new String[][] {{file + "/under", file}, {"b/c", "b/c/d"}, {"a", "a/..."}}) {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        rows.add(RowFactory.create("ok/" + i, new byte[] {1}, null, null));
      }
      rows.add(RowFactory.create(names[0], new byte[] {2}, null, null));
      if (names[1].equals("b/c/d")) {
        rows.add(RowFactory.create(names[1], new byte[] {3}, null, null));
      }
      String message = failedAppend(rows, archive);
      String other = names[1].equals("a/...") ? "'a' and 'a/" : "'" + names[1] + "'";
      assertTrue(message.contains("cannot both be entries") && message.contains(other), message);
      assertSameEntries(model, archive);
    }
  }

  @Test
  void badNamesFailTheWriteAndCommitNothing() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> model = model("a/", 20, 8);
    frame(model, 1).write().format("hpf").save(archive.toString());
    for (String bad : new String[] {null, "../escape", "/absolute", "C:x", ""}) {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        rows.add(RowFactory.create(i == 17 ? bad : "ok/" + i, new byte[] {7}, null, null));
      }
      String message = failedAppend(rows, archive);
      assertTrue(
          bad == null ? message.contains("'name' is null") : message.contains("'" + bad + "'"),
          message);
      assertSameEntries(model, archive);
    }
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .range(3)
                    .selectExpr("cast(id as string) as name", "id as content")
                    .write()
                    .format("hpf")
                    .save(fresh().toString()));
    assertTrue(rootMessage(e).contains("'content' must be binary"), rootMessage(e));
  }

  @Test
  void aTaskThatFailsOnceIsRetriedAndCommittedOnce() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> model = model("r/", 400, 10);
    frame(model, 4)
        .withColumn("name", callUDF("failFirstAttemptOfPartition1", col("name")))
        .write()
        .format("hpf")
        .save(archive.toString());
    assertSameEntries(model, archive);
  }

  @Test
  void aJobAbortedMidwayLeavesTheArchiveUnchanged() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> model = model("a/", 100, 11);
    frame(model, 2).write().format("hpf").save(archive.toString());
    long generation = generation(archive);
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                frame(model("b/", 300, 12), 4)
                    .withColumn("name", callUDF("failPartition1", col("name")))
                    .write()
                    .format("hpf")
                    .mode("append")
                    .save(archive.toString()));
    assertTrue(rootMessage(e).contains("injected failure"), rootMessage(e));
    assertEquals(generation, generation(archive));
    assertSameEntries(model, archive);
    try (var files = Files.list(archive)) {
      assertEquals(
          List.of(),
          files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("_")).toList());
    }
  }

  @Test
  void aLockedArchiveFailsBeforeAnyTaskRuns() throws Exception {
    Path archive = fresh();
    TreeMap<String, byte[]> model = model("a/", 10, 13);
    frame(model, 1).write().format("hpf").save(archive.toString());
    LongAccumulator rowsSeen = spark.sparkContext().longAccumulator();
    spark.udf().register("countRow", new CountRows(rowsSeen), DataTypes.StringType);
    try (LocalStorage storage = LocalStorage.open(archive);
        ArchiveWriter holder = ArchiveWriter.open(storage, WriterOptions.builder().build())) {
      Exception e =
          assertThrows(
              Exception.class,
              () ->
                  frame(model("b/", 10, 14), 2)
                      .withColumn("name", callUDF("countRow", col("name")))
                      .write()
                      .format("hpf")
                      .mode("append")
                      .save(archive.toString()));
      assertTrue(rootMessage(e).contains("locked by another writer"), rootMessage(e));
      assertEquals(0, rowsSeen.value(), "a task ran");
    }
    assertSameEntries(model, archive);
  }
}
