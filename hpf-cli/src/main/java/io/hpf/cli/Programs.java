package io.hpf.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs hpf's other programs — the read server, the mount, MapReduce jobs, Spark packing, the
 * benchmarks — each in a JVM of its own with its module's jars, as a child of this command: the CLI
 * never loads their classes (Netty, YARN's client, Spark), and each gets the JVM settings a long
 * run wants. The child's input, output and exit code are this command's; when this command is ended
 * (Ctrl-C, a signal), it ends the child first.
 */
final class Programs {
  private Programs() {}

  /** The flags of a short-lived process (C1 alone, the parallel collector): the launcher's. */
  private static final List<String> SHORT_RUN =
      List.of("-XX:+UseParallelGC", "-XX:TieredStopAtLevel=1");

  /** A program: its jar's classpath, main class and the JVM flags it runs with. */
  record Program(List<String> jvmFlags, String classpath, String mainClass) {}

  static Program serve(Layout layout) throws IOException {
    // A long-running process: C2 and the default heap sizing, unless HPF_JAVA_OPTS says otherwise.
    return new Program(
        javaOpts(List.of()), withConf(layout.jar("server").toString()), "io.hpf.server.ServeMain");
  }

  static Program mount(Layout layout) throws IOException {
    // Serves until unmounted: C2 and the default heap sizing, unless HPF_JAVA_OPTS says otherwise.
    return new Program(
        javaOpts(List.of()), withConf(layout.jar("mount").toString()), "io.hpf.mount.MountMain");
  }

  /**
   * {@code hpf mount} in the background: the mount command runs in this JVM, its classes loaded
   * from the mount's jar, and starts the mount's own process, one JVM start sooner than running the
   * command as a program would (a fifth of the time to the mount's first answer).
   */
  static int mountInBackground(Program program, List<String> args)
      throws IOException, ReflectiveOperationException {
    List<java.net.URL> urls = new ArrayList<>();
    for (String entry : program.classpath().split(java.io.File.pathSeparator)) {
      urls.add(Path.of(entry).toUri().toURL());
    }
    try (java.net.URLClassLoader loader =
        new java.net.URLClassLoader(
            urls.toArray(new java.net.URL[0]), Programs.class.getClassLoader())) {
      Class<?> main = loader.loadClass(program.mainClass());
      Object code =
          main.getMethod("inCli", List.class, List.class).invoke(null, args, command(program));
      return (Integer) code;
    }
  }

  static Program umount(Layout layout) throws IOException {
    return new Program(
        javaOpts(SHORT_RUN), layout.jar("mount").toString(), "io.hpf.mount.UnmountMain");
  }

  static Program mapreduce(Layout layout) throws IOException {
    return new Program(
        javaOpts(SHORT_RUN),
        extra(layout.jar("mapreduce").toString()),
        "io.hpf.mapreduce.jobs.MapReduceMain");
  }

  static Program bench(Layout layout) throws IOException {
    return new Program(
        javaOpts(SHORT_RUN), extra(layout.jar("bench").toString()), "io.hpf.bench.BenchMain");
  }

  /**
   * Packing with Spark in local mode or on a cluster: Spark's jars as the build resolved them
   * ({@code hpf-spark/target/spark.classpath}) and the JDK internals Spark needs opened.
   */
  static Program sparkPack(Layout layout) throws IOException {
    Path sparkJar = layout.jar("spark");
    Path classpathFile = sparkJar.resolveSibling("spark.classpath");
    Path jvmOptions = layout.checkoutFile("build-tools/spark-jvm-options");
    if (!Files.isRegularFile(classpathFile) || jvmOptions == null) {
      throw new IOException(
          "spark-pack needs Spark's jars, which this distribution does not carry: run"
              + " spark-submit --class io.hpf.spark.pack.SparkPackMain "
              + sparkJar
              + " SRC DEST");
    }
    List<String> flags = new ArrayList<>(javaOpts(List.of()));
    for (String line : Files.readAllLines(jvmOptions, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        flags.add(line.strip());
      }
    }
    Path log4j = layout.root().resolve("hpf-spark/src/main/resources/hpf-spark-log4j2.properties");
    flags.add("-Dlog4j2.configurationFile=" + log4j);
    String sparkClasspath = Files.readString(classpathFile, StandardCharsets.UTF_8).strip();
    return new Program(
        flags,
        withConf(sparkJar + java.io.File.pathSeparator + sparkClasspath),
        "io.hpf.spark.pack.SparkPackMain");
  }

  /** The command line that runs {@code program}, before its arguments. */
  static List<String> command(Program program) {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable());
    command.addAll(program.jvmFlags());
    command.addAll(nativeLibraryFlags());
    // The server stops if this command is killed outright (which leaves it no time to stop it).
    command.add("-Dhpf.commandPid=" + ProcessHandle.current().pid());
    command.add("-cp");
    command.add(program.classpath());
    command.add(program.mainClass());
    return command;
  }

  /**
   * Runs {@code program} with {@code args}; returns its exit code. Standard input, output and error
   * are this process's own.
   */
  static int run(Program program, List<String> args) throws IOException, InterruptedException {
    List<String> command = command(program);
    command.addAll(args);
    Process child = new ProcessBuilder(command).inheritIO().start();
    Thread stop = new Thread(() -> stopChild(child), "hpf-stop-child");
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      return child.waitFor();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(stop);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it stops the child
      }
    }
  }

  /** Ends the child the way a terminal would (SIGTERM), and waits for it. */
  private static void stopChild(Process child) {
    if (child.isAlive()) {
      child.destroy();
      try {
        child.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * HPF_JAVA_OPTS when set (split on spaces, as the launcher's shell did), else {@code defaults}.
   */
  private static List<String> javaOpts(List<String> defaults) {
    String opts = System.getenv("HPF_JAVA_OPTS");
    if (opts == null || opts.isBlank()) {
      return defaults;
    }
    return List.of(opts.trim().split("\\s+"));
  }

  /** The codecs' native libraries the launcher unpacked for this process, for the child too. */
  private static List<String> nativeLibraryFlags() {
    List<String> flags = new ArrayList<>();
    String zstd = System.getProperty("ZstdNativePath");
    if (zstd != null) {
      flags.add("-DZstdNativePath=" + zstd);
    }
    String libraries = System.getProperty("java.library.path");
    if (libraries != null) {
      flags.add("-Djava.library.path=" + libraries); // lz4's, among the system's
    }
    return flags;
  }

  /** The classpath with the Hadoop configuration directory and HPF_CLASSPATH after it. */
  private static String withConf(String classpath) {
    String conf = System.getenv("HADOOP_CONF_DIR");
    return extra(
        conf == null || conf.isEmpty() ? classpath : classpath + java.io.File.pathSeparator + conf);
  }

  /** The classpath with HPF_CLASSPATH (jars such as hadoop-aws) after it. */
  private static String extra(String classpath) {
    String more = System.getenv("HPF_CLASSPATH");
    return more == null || more.isEmpty()
        ? classpath
        : classpath + java.io.File.pathSeparator + more;
  }

  private static String javaExecutable() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }
}
