package io.hpf.spark.pack;

import io.hpf.archive.PackingRequest;
import io.hpf.format.Codec;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code hpf spark-pack SRC DEST}, and the main class for {@code spark-submit --class
 * io.hpf.spark.pack.SparkPackMain hpf-spark.jar SRC DEST}: packs a tree with Spark tasks. Without
 * {@code --master} (and outside spark-submit) it runs Spark in local mode on every core.
 */
@Command(
    name = "hpf spark-pack",
    mixinStandardHelpOptions = true,
    description = "Packs a directory tree of any Hadoop file system into a new archive with Spark.")
public final class SparkPackMain implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "SRC",
      description = "The tree to pack (hdfs://, file:, s3a://...).")
  String source;

  @Parameters(index = "1", paramLabel = "DEST", description = "The new archive.")
  String destination;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description = "Spark master (default: spark-submit's, else local[*]).")
  String master;

  @Option(
      names = "--codec",
      paramLabel = "CODEC",
      description =
          "none, lz4 or zstd (default: zstd on HDFS and other remote file systems, lz4 on"
              + " local disk, zstd with --level or --solid; zstd uses a trained dictionary).")
  String codec;

  @Option(
      names = "--level",
      paramLabel = "N",
      description = "zstd level, 1 to 19 (default 3), as hpf create --level: packs with zstd.")
  Integer level;

  @Option(
      names = "--solid",
      description = "Pack for size, as hpf create --solid (zstd level 10, 256 KiB groups).")
  boolean solid;

  @Option(
      names = "--threads",
      paramLabel = "N",
      defaultValue = "2",
      description = "Reading threads in each task (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(
      names = "--task-mb",
      paramLabel = "MB",
      defaultValue = "256",
      description = "Most source megabytes a task packs (default: ${DEFAULT-VALUE}).")
  long taskMegabytes;

  @Override
  public Integer call() throws Exception {
    SparkSession.Builder builder = SparkSession.builder().appName("hpf spark-pack");
    if (master != null) {
      builder.master(master);
    } else if (System.getProperty("spark.master") == null) {
      builder.master("local[*]");
    }
    String chosen = master != null ? master : System.getProperty("spark.master", "local[*]");
    if (chosen.startsWith("local")) {
      // One machine: the driver on loopback, whatever the host name resolves to.
      builder
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1");
    }
    SparkSession spark = builder.getOrCreate();
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    spark.sparkContext().addSparkListener(new StageProgress(out));
    try {
      SparkPackOptions options =
          new SparkPackOptions(
              new PackingRequest(
                  codec == null ? null : Codec.parse(codec), level, solid, null, null),
              true,
              threads,
              taskMegabytes << 20,
              SparkPackOptions.DEFAULT_TASK_FILES);
      SparkPackResult r = SparkPack.run(spark, source, destination, options);
      out.println(
          String.format(
              Locale.ROOT,
              "packed %d files (%d bytes) into %s in %.1f s: %d listing tasks, %d pack tasks%s",
              r.files(),
              r.bytes(),
              destination,
              r.seconds(),
              r.listTasks(),
              r.packTasks(),
              r.dictionaryBytes() > 0 ? ", a " + r.dictionaryBytes() + "-byte dictionary" : ""));
      return 0;
    } finally {
      spark.stop();
    }
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new SparkPackMain());
    cli.setExecutionExceptionHandler(
        (e, commandLine, parsed) -> {
          commandLine.getErr().println("hpf spark-pack: " + rootMessage(e));
          return 1;
        });
    System.exit(cli.execute(args));
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
