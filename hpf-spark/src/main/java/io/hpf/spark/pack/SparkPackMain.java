package io.hpf.spark.pack;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.Codec;
import java.io.PrintStream;
import java.net.URI;
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
    description = "Packs a directory tree of any Hadoop file system into a new archive with Spark.",
    footer = {
      "",
      "Examples:",
      "  hpf spark-pack hdfs://nn:9000/incoming/logs hdfs://nn:9000/data/logs.hpf",
      "  hpf spark-pack --master spark://host:7077 --task-mb 512 hdfs://nn:9000/in hdfs://nn:9000/out.hpf",
      "  hpf spark-pack --solid s3a://bucket/raw/ s3a://bucket/raw.hpf",
      "docs/SPARK.md has the details; the result is the archive hpf create makes of the tree."
    })
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
    // What can be known before Spark starts is checked first: its start-up takes seconds, and an
    // unreachable master is given up only after a minute of retries.
    refuseAnExistingArchive(destination);
    String chosen = master != null ? master : System.getProperty("spark.master", "local[*]");
    URI standalone = chosen.startsWith("spark://") ? URI.create(chosen) : null;
    if (standalone != null) {
      requireReachable(standalone);
    }
    SparkSession spark = startSpark(chosen, standalone);
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
      if (!r.skipped().isEmpty()) { // as hpf create lists them
        System.err.println("skipped " + r.skipped().size() + ":");
        r.skipped().stream().limit(20).forEach(line -> System.err.println("  " + line));
        if (r.skipped().size() > 20) {
          System.err.println("  ... and " + (r.skipped().size() - 20) + " more");
        }
      }
      return 0;
    } finally {
      spark.stop();
    }
  }

  /**
   * The session: loopback on one machine; this jar shipped to executors that are JVMs elsewhere.
   */
  private SparkSession startSpark(String chosen, URI standalone) throws Exception {
    SparkSession.Builder builder = SparkSession.builder().appName("hpf spark-pack");
    if (master != null) {
      builder.master(master);
    } else if (System.getProperty("spark.master") == null) {
      builder.master("local[*]");
    }
    if (chosen.startsWith("local") || (standalone != null && isLoopback(standalone.getHost()))) {
      // One machine: the driver on loopback, whatever the host name resolves to.
      builder
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1");
    }
    if (!chosen.startsWith("local") && System.getProperty("spark.jars") == null) {
      // Started by hpf's launcher, not spark-submit: the executors, each its own JVM elsewhere,
      // get this jar from the driver as spark-submit would give it to them.
      builder.config("spark.jars", ownJar());
    }
    return builder.getOrCreate();
  }

  /** A destination that is an archive already is refused before Spark starts. */
  private static void refuseAnExistingArchive(String destination) throws java.io.IOException {
    org.apache.hadoop.fs.Path dest = new org.apache.hadoop.fs.Path(destination);
    org.apache.hadoop.fs.FileSystem fs =
        dest.getFileSystem(new org.apache.hadoop.conf.Configuration());
    if (!fs.exists(dest)) {
      return;
    }
    if (!fs.getFileStatus(dest).isDirectory()) {
      throw new IllegalArgumentException(destination + ": a file is in the way");
    }
    for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(dest)) {
      if (ArchiveFormat.manifestGeneration(f.getPath().getName()) >= 0) {
        throw new IllegalArgumentException(destination + ": the archive exists");
      }
    }
  }

  /** The standalone master answers on its port, or this says so in one line. */
  private static void requireReachable(URI master) {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress(master.getHost(), master.getPort()), 5000);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(
          "cannot reach the Spark master at " + master + ": " + e.getMessage());
    }
  }

  private static boolean isLoopback(String host) {
    try {
      return java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  /** The jar this class was loaded from (hpf-spark.jar), for the executors. */
  private static String ownJar() throws java.net.URISyntaxException {
    java.nio.file.Path jar =
        java.nio.file.Path.of(
            SparkPackMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (!java.nio.file.Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar + " is not a jar: run hpf spark-pack from the built hpf-spark.jar");
    }
    return jar.toString();
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new SparkPackMain());
    cli.setExecutionExceptionHandler(
        (e, commandLine, parsed) -> {
          commandLine
              .getErr()
              .println("hpf spark-pack: " + rootMessage(e).lines().findFirst().orElse(""));
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
