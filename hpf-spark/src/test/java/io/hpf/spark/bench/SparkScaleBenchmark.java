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
 * Arguments: the archive, a file of names (one a line), repetitions.
 */
public final class SparkScaleBenchmark {
  private SparkScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    String archive = args[0];
    List<String> names = Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8);
    int repetitions = Integer.parseInt(args[2]);
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("hpf scale benchmark")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
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
