package io.hpf.spark.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Spark's figures of the scale benchmark (issue 32, {@code scripts/bench-scale-engines.sh}): over
 * an archive {@code hpf bench scale --keep} made, in local[2], the time of {@code count()} of every
 * entry and of a lookup of the names given (their contents read, lengths summed), each repeated;
 * the first of each and the median of the rest. Prints one line of {@code key=value} pairs.
 * Arguments: the archive, a file of names (one a line), repetitions. Or {@code write ARCHIVE N
 * PARTITIONS}: writes N generated entries (the scale benchmark's names and sizes, made by Spark
 * SQL, no files) into a new archive with {@code df.write.format("hpf")} from that many tasks, and
 * prints the time and rate.
 */
public final class SparkScaleBenchmark {
  private SparkScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("write")) {
      write(args[1], Long.parseLong(args[2]), Integer.parseInt(args[3]));
      return;
    }
    String archive = args[0];
    List<String> names = Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8);
    int repetitions = Integer.parseInt(args[2]);
    SparkSession spark = session();
    long entries = -1;
    long bytes = -1;
    double[] count = new double[repetitions];
    double[] lookup = new double[repetitions];
    for (int r = 0; r < repetitions; r++) {
      long start = System.nanoTime();
      entries = spark.read().format("hpf").load(archive).count();
      count[r] = (System.nanoTime() - start) / 1e9;
      start = System.nanoTime();
      Dataset<Row> found =
          spark
              .read()
              .format("hpf")
              .load(archive)
              .where(functions.col("name").isin(names.toArray()))
              .select(functions.length(functions.col("content")).as("n"));
      bytes = found.agg(functions.sum("n")).first().getLong(0);
      lookup[r] = (System.nanoTime() - start) / 1e9;
    }
    spark.stop();
    System.out.println(
        "entries="
            + entries
            + " names="
            + names.size()
            + " bytes_found="
            + bytes
            + " spark_count_first_s="
            + count[0]
            + " spark_count_s="
            + median(count)
            + " spark_lookup_first_s="
            + lookup[0]
            + " spark_lookup_s="
            + median(lookup));
  }

  private static SparkSession session() {
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("hpf scale benchmark")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    return spark;
  }

  /**
   * Entry i: {@code logs/host-(d % 1000)/2024-MM-DD/HH/app-i.log} with d = i / 1000 (as {@code hpf
   * bench scale} names them), content a log line repeated to 50-150 bytes.
   */
  private static void write(String archive, long entries, int partitions) {
    SparkSession spark = session();
    Dataset<Row> rows =
        spark
            .range(0, entries, 1, partitions)
            .selectExpr(
                "id",
                "id div 1000 as d",
                "concat('2024-03-17T05:00:00Z host app[', id, ']: request served in ', id % 997,"
                    + " ' ms\n') as line")
            .selectExpr(
                "format_string('logs/host-%04d/2024-%02d-%02d/%02d/app-%09d.log', d % 1000,"
                    + " (d div 1000 div 28) % 12 + 1, (d div 1000) % 28 + 1,"
                    + " (d div 1000 div 336) % 24, id) as name",
                "cast(substring(repeat(line, 3), 1, 50 + cast(pmod(id * 7919, 101) as int))"
                    + " as binary) as content");
    long start = System.nanoTime();
    rows.write().format("hpf").save(archive);
    double seconds = (System.nanoTime() - start) / 1e9;
    spark.stop();
    System.out.println(
        "spark_write_entries="
            + entries
            + " spark_write_tasks="
            + partitions
            + " spark_write_s="
            + seconds
            + " spark_write_entries_per_s="
            + entries / seconds);
  }

  /** The median of the repetitions after the first (the first alone if there is one). */
  private static double median(double[] seconds) {
    if (seconds.length == 1) {
      return seconds[0];
    }
    double[] rest = Arrays.copyOfRange(seconds, 1, seconds.length);
    Arrays.sort(rest);
    return rest[rest.length / 2];
  }
}
