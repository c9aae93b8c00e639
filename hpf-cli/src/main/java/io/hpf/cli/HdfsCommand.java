package io.hpf.cli;

import io.hpf.hadoop.LocalHdfs;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "hdfs",
    description = {
      "A real single-machine HDFS for trying hpf out and for benchmarks: a NameNode and",
      "DataNodes as separate processes on 127.0.0.1, run from hpf's own jars. Data, logs and a",
      "conf/ directory usable as HADOOP_CONF_DIR live under --home."
    },
    footer = {
      "",
      "Examples:",
      "  hpf hdfs start",
      "  hpf create $(hpf hdfs status --uri)/data/docs.hpf docs",
      "  hpf hdfs stop"
    },
    mixinStandardHelpOptions = true,
    subcommands = {HdfsCommand.Start.class, HdfsCommand.Stop.class, HdfsCommand.Status.class})
final class HdfsCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required: start, stop or status");
  }

  /** The --home option of every subcommand. */
  static final class Home {
    @Option(
        names = "--home",
        paramLabel = "DIR",
        description = "Where the cluster lives (default: $HPF_HDFS_HOME or ~/.hpf/hdfs).")
    Path home;

    LocalHdfs cluster() {
      if (home != null) {
        return new LocalHdfs(home);
      }
      String env = System.getenv("HPF_HDFS_HOME");
      String userHome = System.getenv("HOME"); // ~ as the shell means it; Java's is the passwd one
      return new LocalHdfs(
          env != null && !env.isEmpty()
              ? Path.of(env)
              : Path.of(
                  userHome != null && !userHome.isEmpty()
                      ? userHome
                      : System.getProperty("user.home"),
                  ".hpf",
                  "hdfs"));
    }
  }

  @Command(name = "start", description = "Starts the cluster.", mixinStandardHelpOptions = true)
  static final class Start implements Callable<Integer> {
    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin Home home;

    @Option(
        names = "--datanodes",
        paramLabel = "N",
        defaultValue = "1",
        description = "DataNodes to start (default: ${DEFAULT-VALUE}).")
    int dataNodes;

    @Option(
        names = "--timeout",
        paramLabel = "SECONDS",
        defaultValue = "120",
        description = "How long to wait for the cluster (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Override
    public Integer call() throws Exception {
      if (dataNodes < 1) {
        throw new IllegalArgumentException("--datanodes must be at least 1");
      }
      LocalHdfs cluster = home.cluster();
      LocalHdfs.Status status =
          cluster.start(dataNodes, System.getProperty("java.class.path"), timeoutSeconds * 1000);
      PrintWriter out = spec.commandLine().getOut();
      out.println("HDFS running at " + status.uri());
      out.println("  WebHDFS (readers without a JVM) at " + status.webHdfs());
      out.println(
          "  NameNode pid " + status.nameNodePid() + ", DataNode pids " + status.dataNodePids());
      out.println(
          "  HADOOP_CONF_DIR=" + cluster.confDir() + ", logs in " + cluster.home().resolve("logs"));
      return Main.EXIT_OK;
    }
  }

  @Command(
      name = "stop",
      description = "Stops the cluster (its data stays for the next start).",
      mixinStandardHelpOptions = true)
  static final class Stop implements Callable<Integer> {
    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin Home home;

    @Override
    public Integer call() throws Exception {
      boolean stopped = home.cluster().stop();
      spec.commandLine().getOut().println(stopped ? "HDFS stopped" : "HDFS was not running");
      return Main.EXIT_OK;
    }
  }

  @Command(
      name = "status",
      description = "Prints the hdfs:// URI and the daemons; exit status 1 if not running.",
      mixinStandardHelpOptions = true)
  static final class Status implements Callable<Integer> {
    @Spec CommandSpec spec;
    @picocli.CommandLine.Mixin Home home;

    @Option(names = "--uri", description = "Print only the URI (for scripts).")
    boolean uriOnly;

    @Option(
        names = "--webhdfs",
        description =
            "Print only its WebHDFS URI (the NameNode's HTTP port), for readers without a JVM.")
    boolean webHdfsOnly;

    @Option(
        names = "--conf-dir",
        description =
            "Print only its configuration directory, for HADOOP_CONF_DIR (replication as many as"
                + " there are DataNodes, up to 3).")
    boolean confDirOnly;

    @Override
    public Integer call() throws Exception {
      LocalHdfs cluster = home.cluster();
      var status = cluster.status();
      PrintWriter out = spec.commandLine().getOut();
      if (status.isEmpty() || !status.get().alive()) {
        spec.commandLine().getErr().println("hpf: no HDFS running from " + cluster.home());
        return Main.EXIT_FAILED;
      }
      if (uriOnly) {
        out.println(status.get().uri());
        return Main.EXIT_OK;
      }
      if (confDirOnly) {
        out.println(cluster.confDir());
        return Main.EXIT_OK;
      }
      if (webHdfsOnly) {
        out.println(status.get().webHdfs());
        return Main.EXIT_OK;
      }
      out.println("HDFS running at " + status.get().uri());
      out.println("  WebHDFS (readers without a JVM) at " + status.get().webHdfs());
      out.println("  NameNode pid " + status.get().nameNodePid());
      for (long pid : status.get().dataNodePids()) {
        boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        out.println("  DataNode pid " + pid + (alive ? "" : " (not running)"));
      }
      out.println("  HADOOP_CONF_DIR=" + cluster.confDir());
      return Main.EXIT_OK;
    }
  }
}
