package io.hpf.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.spark.SharedSpark;
import io.hpf.store.LocalStorage;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input gets an error that says what and where, in our words. */
class ReadErrorsTest {
  @TempDir static Path dir;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = SharedSpark.session();
  }

  private static String failure(String path, String... columns) {
    return failureWhere(path, ReadOptions.DEFAULT_DRIVER_LOOKUP_BYTES, "true", columns);
  }

  /**
   * The root message of reading {@code columns} of the rows passing {@code where}, with lookups by
   * name read on the driver up to {@code driverLookupBytes}.
   */
  private static String failureWhere(
      String path, long driverLookupBytes, String where, String... columns) {
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .read()
                    .format("hpf")
                    .option("maxEntryBytes", 1000)
                    .option("driverLookupBytes", driverLookupBytes)
                    .load(path)
                    .where(where)
                    .select(columns[0], java.util.Arrays.copyOfRange(columns, 1, columns.length))
                    .collectAsList());
    return FilterPushdownTest.rootMessage(e);
  }

  @Test
  void aPathThatIsNoArchiveIsNamed() throws Exception {
    String missing = dir.resolve("missing.hpf").toString();
    assertTrue(failure(missing, "name").contains("missing.hpf: no such archive"));
    Path file = Files.writeString(dir.resolve("file.hpf"), "x");
    assertTrue(failure(file.toString(), "name").contains("not an archive"));
    Path empty = Files.createDirectories(dir.resolve("empty.hpf"));
    String message = failure(empty.toString(), "name");
    assertTrue(message.contains("empty.hpf"), message);
    assertTrue(!message.contains("Exception"), message);
  }

  @Test
  void aDamagedEntryAndATooLargeOneAreNamed() throws Exception {
    Path archive = dir.resolve("damaged.hpf");
    EntryInfo victim;
    try (LocalStorage storage = LocalStorage.createDirectories(archive)) {
      try (ArchiveWriter writer =
          ArchiveWriter.create(storage, WriterOptions.builder().codec(Codec.NONE).build())) {
        writer.add("small", new byte[100], EntryMetadata.of(0));
        writer.add("victim", new byte[500], EntryMetadata.of(0));
        writer.add("large", new byte[5000], EntryMetadata.of(0));
        writer.commit();
      }
      try (ArchiveReader reader = ArchiveReader.open(storage)) {
        victim = reader.stat("victim");
      }
    }
    // The metadata is whole: a query without content works, and finds the large one.
    assertEquals(
        3, spark.read().format("hpf").load(archive.toString()).select("name", "length").count());
    String large = failure(archive.toString(), "name", "content");
    assertTrue(large.contains("large") && large.contains("maxEntryBytes"), large);
    // The same when the name is looked up, by tasks and by the driver.
    for (long driver : new long[] {0, 1 << 20}) {
      String named = failureWhere(archive.toString(), driver, "name = 'large'", "content");
      assertEquals(large, named, "driverLookupBytes " + driver);
    }
    // Flip a content byte of the victim.
    Path part = archive.resolve(FileNames.partFileName(victim.partId()));
    try (FileChannel ch = FileChannel.open(part, StandardOpenOption.WRITE)) {
      long at = victim.offset() + victim.entryLength() - 10;
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {42}), at);
    }
    for (long driver : new long[] {0, 1 << 20}) {
      String damaged = failureWhere(archive.toString(), driver, "name = 'victim'", "content");
      assertTrue(
          damaged.contains("victim") && damaged.contains(part.getFileName().toString()), damaged);
    }
  }
}
