package io.hpf.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hpf classpath}: like {@code hadoop classpath}, the jars a Hadoop client needs beyond its
 * own to use {@code hpf://} and hpf's input and output formats; with {@code --spark}, the one jar
 * Spark needs for {@code format("hpf")}.
 */
@Command(
    name = "classpath",
    description = {
      "Prints the jars other tools need for hpf: a Hadoop client's (hpf://, the MapReduce",
      "formats) or, with --spark, Spark's (format(\"hpf\"), spark-pack)."
    },
    footer = {
      "",
      "Examples:",
      "  HADOOP_CLASSPATH=$(hpf classpath) hadoop fs -ls hpf://hdfs-nn:9000/data/logs.hpf/",
      "  pyspark --jars $(hpf classpath --spark)",
      "  spark-submit --jars $(hpf classpath --spark --s3a) ...   # a cluster without S3A"
    },
    mixinStandardHelpOptions = true)
final class ClasspathCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--spark", description = "The jar Spark needs (Spark brings Hadoop and codecs).")
  boolean spark;

  @Option(
      names = "--s3a",
      description =
          "Add hpf-s3a.jar: S3A and the AWS SDK modules it calls, for a cluster whose Hadoop"
              + " (3.5) has no s3a:// (comma-separated with --spark, for --jars).")
  boolean s3a;

  /** What a Hadoop client lacks: hpf's own jars and the two codecs' (Hadoop has the rest). */
  private static final List<String> HADOOP_CLIENT_LACKS =
      List.of("hpf-core-", "hpf-hadoop-", "zstd-jni-", "lz4-java-");

  @Override
  public Integer call() throws Exception {
    Layout layout = Layout.ofThisCli();
    if (spark) {
      spec.commandLine()
          .getOut()
          .println(layout.jar("spark") + (s3a ? "," + layout.jar("s3a") : ""));
      return Main.EXIT_OK;
    }
    Path jar = layout.jar("mapreduce");
    List<String> entries = new ArrayList<>();
    entries.add(jar.toString());
    if (s3a) {
      entries.add(layout.jar("s3a").toString());
    }
    try (Stream<Path> libs = Files.list(jar.resolveSibling("lib"))) {
      libs.filter(ClasspathCommand::hadoopClientLacks)
          .map(Path::toString)
          .sorted()
          .forEach(entries::add);
    }
    spec.commandLine().getOut().println(String.join(File.pathSeparator, entries));
    return Main.EXIT_OK;
  }

  private static boolean hadoopClientLacks(Path jar) {
    String name = jar.getFileName().toString();
    return name.endsWith(".jar") && HADOOP_CLIENT_LACKS.stream().anyMatch(name::startsWith);
  }
}
