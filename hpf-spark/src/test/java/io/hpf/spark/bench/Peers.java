package io.hpf.spark.bench;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.PairFunction;
import org.apache.spark.input.PortableDataStream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import scala.Tuple2;

/**
 * The four ways of reading small files the benchmark compares, each answering the same four
 * questions: total content bytes, distinct words, entries under a prefix, and 1,000 named files
 * (their bytes). Spark functions are classes, not lambdas (the build forbids a serializable
 * lambda's generated String.hashCode switch).
 */
final class Peers {
  /** A way of reading the files. */
  enum System {
    HPF("hpf"),
    BINARY_FILE("binaryFile"),
    WHOLE_TEXT_FILES("wholeTextFiles"),
    BINARY_FILES("sc.binaryFiles");

    final String label;

    System(String label) {
      this.label = label;
    }
  }

  private final SparkSession spark;
  private final JavaSparkContext jsc;
  private final String archive;
  private final String plain;
  private final int minPartitions;

  /**
   * @param archive the archive of the files
   * @param plain the directory of the same files, qualified as Spark names them
   */
  Peers(SparkSession spark, String archive, String plain, int files) {
    this.spark = spark;
    // A partition per 1,000 files, as one would ask for on this many files (wholeTextFiles cuts
    // by it; sc.binaryFiles by spark.files.maxPartitionBytes, see SparkBenchmark).
    this.minPartitions = Math.max(2, files / 1000);
    this.jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    this.archive = archive;
    this.plain = plain;
    // sc.binaryFiles and wholeTextFiles descend into subdirectories only when told.
    spark
        .sparkContext()
        .hadoopConfiguration()
        .setBoolean("mapreduce.input.fileinputformat.input.dir.recursive", true);
  }

  private Dataset<Row> inMemory;

  private Dataset<Row> hpf() {
    return spark.read().format("hpf").load(archive);
  }

  private Dataset<Row> binaryFile() {
    return spark.read().format("binaryFile").option("recursiveFileLookup", "true").load(plain);
  }

  /** Total content bytes. */
  long bytes(System system) {
    return switch (system) {
      case HPF -> sumLengths(hpf());
      case BINARY_FILE -> sumLengths(binaryFile());
      case WHOLE_TEXT_FILES ->
          jsc.wholeTextFiles(plain, minPartitions).values().map(new Utf8Length()).reduce(new Sum());
      case BINARY_FILES ->
          jsc.binaryFiles(plain, minPartitions).values().map(new StreamLength()).reduce(new Sum());
    };
  }

  private static long sumLengths(Dataset<Row> df) {
    return df.select(functions.sum(functions.length(functions.col("content")))).first().getLong(0);
  }

  /** Distinct words (a WordCount: words counted by key, then the keys counted). */
  long wordCount(System system) {
    JavaRDD<String> texts =
        switch (system) {
          case HPF -> hpf().select("content").javaRDD().map(new RowText());
          case BINARY_FILE -> binaryFile().select("content").javaRDD().map(new RowText());
          case WHOLE_TEXT_FILES -> jsc.wholeTextFiles(plain, minPartitions).values();
          case BINARY_FILES -> jsc.binaryFiles(plain, minPartitions).values().map(new StreamText());
        };
    JavaPairRDD<String, Long> counts =
        texts.flatMap(new Words()).mapToPair(new One()).reduceByKey(new Sum());
    return counts.count();
  }

  /** Entries whose name starts with {@code prefix} (metadata only). */
  long countPrefix(System system, String prefix) {
    Contains under = new Contains(plain + "/" + prefix, null);
    return switch (system) {
      case HPF -> hpf().where(functions.col("name").startsWith(prefix)).count();
      case BINARY_FILE ->
          binaryFile().where(functions.col("path").startsWith(plain + "/" + prefix)).count();
      case WHOLE_TEXT_FILES ->
          jsc.wholeTextFiles(plain, minPartitions).keys().filter(under).count();
      case BINARY_FILES -> jsc.binaryFiles(plain, minPartitions).keys().filter(under).count();
    };
  }

  /** The bytes of the named files, looked up by name (path). */
  long lookup(System system, List<String> names) {
    List<String> paths = names.stream().map(n -> plain + "/" + n).toList();
    Contains among = new Contains(null, new HashSet<>(paths));
    return switch (system) {
      case HPF ->
          lengths(hpf().where(functions.col("name").isin(names.toArray())).select("content"));
      case BINARY_FILE ->
          lengths(
              binaryFile().where(functions.col("path").isin(paths.toArray())).select("content"));
      case WHOLE_TEXT_FILES ->
          jsc.wholeTextFiles(plain, minPartitions)
              .filter(new KeyIn<>(among))
              .values()
              .map(new Utf8Length())
              .fold(0L, new Sum());
      case BINARY_FILES ->
          jsc.binaryFiles(plain, minPartitions)
              .filter(new KeyIn<>(among))
              .values()
              .map(new StreamLength())
              .fold(0L, new Sum());
    };
  }

  /**
   * hpf's lookup with the rows read by tasks: what a lookup past {@code driverLookupBytes} does.
   */
  long lookupByTasks(List<String> names) {
    Dataset<Row> df = spark.read().format("hpf").option("driverLookupBytes", 0).load(archive);
    return lengths(df.where(functions.col("name").isin(names.toArray())).select("content"));
  }

  /** The same lookups in the archive's names and contents cached in Spark's memory. */
  long lookupInMemory(List<String> names) {
    if (inMemory == null) {
      inMemory = hpf().select("name", "content").cache();
      inMemory.count(); // fills the cache before any lookup is timed
    }
    return lengths(inMemory.where(functions.col("name").isin(names.toArray())).select("content"));
  }

  private static long lengths(Dataset<Row> content) {
    long total = 0;
    for (Row r : content.collectAsList()) {
      total += ((byte[]) r.get(0)).length;
    }
    return total;
  }

  private static final class Sum implements Function2<Long, Long, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long call(Long a, Long b) {
      return a + b;
    }
  }

  private static final class Utf8Length implements Function<String, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long call(String text) {
      return (long) text.getBytes(StandardCharsets.UTF_8).length;
    }
  }

  private static final class StreamLength implements Function<PortableDataStream, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long call(PortableDataStream stream) {
      return (long) stream.toArray().length;
    }
  }

  private static final class StreamText implements Function<PortableDataStream, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(PortableDataStream stream) {
      return new String(stream.toArray(), StandardCharsets.UTF_8);
    }
  }

  private static final class RowText implements Function<Row, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(Row row) {
      return new String((byte[]) row.get(0), StandardCharsets.UTF_8);
    }
  }

  private static final class Words implements FlatMapFunction<String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<String> call(String text) {
      return Arrays.asList(text.split("\\s+")).iterator();
    }
  }

  private static final class One implements PairFunction<String, String, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Tuple2<String, Long> call(String word) {
      return new Tuple2<>(word, 1L);
    }
  }

  /** A path starts with a text, or is one of a set of paths. */
  private static final class Contains implements Function<String, Boolean> {
    private static final long serialVersionUID = 1L;
    private final String text;
    private final HashSet<String> among;

    Contains(String text, HashSet<String> among) {
      this.text = text;
      this.among = among;
    }

    @Override
    public Boolean call(String path) {
      return among != null ? among.contains(path) : path.startsWith(text);
    }
  }

  private static final class KeyIn<V> implements Function<Tuple2<String, V>, Boolean> {
    private static final long serialVersionUID = 1L;
    private final Contains test;

    KeyIn(Contains test) {
      this.test = test;
    }

    @Override
    public Boolean call(Tuple2<String, V> pair) {
      return test.call(pair._1());
    }
  }
}
