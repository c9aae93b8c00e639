package io.hpf.hadoop;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/**
 * A real single-machine HDFS: a NameNode and DataNodes as separate JVM processes on 127.0.0.1, run
 * from the jars hpf itself runs from. Everything lives under one home directory: {@code conf/}
 * (core-site.xml and hdfs-site.xml, usable as HADOOP_CONF_DIR), {@code name/}, {@code data-N/},
 * {@code logs/}, {@code webapps/} (the empty directories the daemons' web servers need on the
 * classpath) and {@code cluster.properties} (URI and process ids).
 */
public final class LocalHdfs {
  private static final String STATE = "cluster.properties";
  private static final int PREFERRED_PORT = 9000;
  private static final int BIND_ATTEMPTS = 3;

  private final Path home;
  private final boolean distinctHostNames;
  private final int preferredPort;

  public LocalHdfs(Path home) {
    this(home, false, PREFERRED_PORT);
  }

  private LocalHdfs(Path home, boolean distinctHostNames, int preferredPort) {
    this.home = home.toAbsolutePath();
    this.distinctHostNames = distinctHostNames;
    this.preferredPort = preferredPort;
  }

  /**
   * This cluster on a free port, never 9000 (which a user's cluster, or another test's, may be
   * about to take).
   */
  public LocalHdfs onAnyPort() {
    return new LocalHdfs(home, distinctHostNames, 0);
  }

  /**
   * This cluster with DataNode {@code i} registered as host {@link #dataNodeHostName}{@code (i)}
   * (all still on 127.0.0.1), so that block locations tell DataNodes apart as on a real cluster.
   * Clients reach DataNodes by IP address and need not resolve the names.
   */
  public LocalHdfs withDistinctHostNames() {
    return new LocalHdfs(home, true, preferredPort);
  }

  /** The host name DataNode {@code index} registers with, under {@link #withDistinctHostNames}. */
  public static String dataNodeHostName(int index) {
    return "dn" + index + ".hpf.test";
  }

  public Path home() {
    return home;
  }

  public Path confDir() {
    return home.resolve("conf");
  }

  /** What is running, if {@code start} ran and the NameNode process is alive. */
  /**
   * What is running.
   *
   * @param webHdfs the NameNode's HTTP address as a {@code webhdfs://} URI (readers without a JVM:
   *     the Python package), or null when an older hpf started it
   */
  public record Status(
      URI uri, URI webHdfs, long nameNodePid, List<Long> dataNodePids, boolean alive) {}

  /** The recorded cluster, or empty if it was never started here. */
  public Optional<Status> status() throws IOException {
    Optional<Properties> state = readState();
    return state.isEmpty() ? Optional.empty() : Optional.of(status(state.get()));
  }

  private Optional<Properties> readState() throws IOException {
    Path state = home.resolve(STATE);
    if (!Files.exists(state)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(state, StandardCharsets.UTF_8)) {
      p.load(in);
    }
    return Optional.of(p);
  }

  private static Status status(Properties p) {
    long nn = Long.parseLong(p.getProperty("namenode.pid"));
    List<Long> dns = new ArrayList<>();
    for (String pid : p.getProperty("datanode.pids", "").split(",")) {
      if (!pid.isEmpty()) {
        dns.add(Long.parseLong(pid));
      }
    }
    boolean alive = ours(nn, p).isPresent();
    String webHdfs = p.getProperty("webhdfs");
    return new Status(
        URI.create(p.getProperty("uri")),
        webHdfs == null ? null : URI.create(webHdfs),
        nn,
        dns,
        alive);
  }

  /**
   * The running process with this pid if it is the one {@code start} launched: its start time is
   * the one recorded then. A pid reused by another process after ours died is never signalled.
   */
  private static Optional<ProcessHandle> ours(long pid, Properties recorded) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    String started = recorded.getProperty("started." + pid);
    if (handle.isEmpty() || started == null) {
      return Optional.empty(); // gone, or recorded by an hpf that did not note start times
    }
    Optional<java.time.Instant> actual = handle.get().info().startInstant();
    return actual.isPresent() && actual.get().toEpochMilli() == Long.parseLong(started)
        ? handle
        : Optional.empty();
  }

  private static void recordStart(Properties p, Process process) {
    process
        .info()
        .startInstant()
        .ifPresent(t -> p.setProperty("started." + process.pid(), Long.toString(t.toEpochMilli())));
  }

  /**
   * Formats (on first start) and starts the NameNode and {@code dataNodes} DataNodes, then waits
   * until all DataNodes have registered. {@code classpath} is the classpath of the daemons (it must
   * hold hadoop-hdfs).
   *
   * @throws IOException if it is already running, or a daemon does not come up within {@code
   *     timeoutMillis} (its log is named)
   */
  public Status start(int dataNodes, String classpath, long timeoutMillis) throws IOException {
    Optional<Status> running = status();
    if (running.isPresent() && running.get().alive()) {
      throw new IOException(
          "an HDFS started from " + home + " is already running at " + running.get().uri());
    }
    for (String dir : new String[] {"conf", "logs", "webapps/hdfs", "webapps/datanode"}) {
      Files.createDirectories(home.resolve(dir));
    }
    Files.createDirectories(home.resolve("webapps/static"));
    String cp =
        confDir() + java.io.File.pathSeparator + home + java.io.File.pathSeparator + classpath;
    URI uri = null;
    URI webHdfs = null;
    Process nameNode = null;
    // The port is free when chosen but may be taken before the NameNode binds it (tests start
    // clusters side by side); a NameNode that lost that race is started again on another port.
    for (int attempt = 1; nameNode == null; attempt++) {
      uri = URI.create("hdfs://127.0.0.1:" + freePort(attempt == 1 ? preferredPort : 0));
      webHdfs = URI.create("webhdfs://127.0.0.1:" + freePort(0));
      writeConfiguration(uri, webHdfs, dataNodes);
      if (!Files.exists(home.resolve("name/current/VERSION"))) {
        Process format =
            launch(
                cp,
                "org.apache.hadoop.hdfs.server.namenode.NameNode",
                "format",
                List.of("-format", "-nonInteractive", "-force"),
                false);
        waitFor(format, "format", timeoutMillis);
      }
      Process started =
          launch(
              cp, "org.apache.hadoop.hdfs.server.namenode.NameNode", "namenode", List.of(), true);
      if (awaitBound(started, uri, timeoutMillis) || attempt == BIND_ATTEMPTS) {
        nameNode = started;
      }
    }
    Properties p = new Properties();
    recordStart(p, nameNode);
    List<Long> dataNodePids = new ArrayList<>();
    for (int i = 0; i < dataNodes; i++) {
      Process dataNode = launchDataNode(cp, i);
      dataNodePids.add(dataNode.pid());
      recordStart(p, dataNode);
    }
    p.setProperty("uri", uri.toString());
    p.setProperty("webhdfs", webHdfs.toString());
    p.setProperty("namenode.pid", Long.toString(nameNode.pid()));
    p.setProperty(
        "datanode.pids", String.join(",", dataNodePids.stream().map(String::valueOf).toList()));
    try (var out = Files.newBufferedWriter(home.resolve(STATE), StandardCharsets.UTF_8)) {
      p.store(out, "hpf hdfs start");
    }
    waitUntilReady(uri, dataNodes, nameNode, timeoutMillis);
    return new Status(uri, webHdfs, nameNode.pid(), dataNodePids, true);
  }

  private Process launchDataNode(String cp, int index) throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-D",
                "dfs.datanode.data.dir=" + home.resolve("data-" + index).toUri(),
                "-D",
                "dfs.datanode.address=127.0.0.1:0",
                "-D",
                "dfs.datanode.http.address=127.0.0.1:0",
                "-D",
                "dfs.datanode.ipc.address=127.0.0.1:0"));
    if (distinctHostNames) {
      args.addAll(List.of("-D", "dfs.datanode.hostname=" + dataNodeHostName(index)));
    }
    return launch(
        cp, "org.apache.hadoop.hdfs.server.datanode.DataNode", "datanode-" + index, args, true);
  }

  /** Stops every daemon (SIGTERM, then SIGKILL after 20 s). Data stays for the next start. */
  public boolean stop() throws IOException {
    Optional<Properties> state = readState();
    if (state.isEmpty()) {
      return false;
    }
    Properties p = state.get();
    Status recorded = status(p);
    List<Long> pids = new ArrayList<>(recorded.dataNodePids());
    pids.add(recorded.nameNodePid());
    boolean any = false;
    for (long pid : pids) {
      Optional<ProcessHandle> handle = ours(pid, p);
      if (handle.isPresent()) {
        any = true;
        handle.get().destroy();
        try {
          handle.get().onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          handle.get().destroyForcibly();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while stopping HDFS");
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IOException(e);
        }
      }
    }
    Files.deleteIfExists(home.resolve(STATE));
    return any;
  }

  private void writeConfiguration(URI uri, URI webHdfs, int dataNodes) throws IOException {
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", uri.toString());
    core.set("hadoop.tmp.dir", home.resolve("tmp").toString());
    Configuration hdfs = new Configuration(false);
    hdfs.set("dfs.namenode.name.dir", home.resolve("name").toUri().toString());
    hdfs.set("dfs.namenode.rpc-address", uri.getHost() + ":" + uri.getPort());
    // WebHDFS (on by default) at a known port: readers without a JVM read HDFS through it.
    hdfs.set("dfs.namenode.http-address", "127.0.0.1:" + webHdfs.getPort());
    hdfs.set("dfs.namenode.secondary.http-address", "127.0.0.1:0");
    hdfs.setInt("dfs.replication", Math.min(3, dataNodes));
    hdfs.setBoolean("dfs.permissions.enabled", false);
    // One machine: no hostname lookups, and clients reach DataNodes by their IP address.
    hdfs.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
    hdfs.setBoolean("dfs.client.use.datanode.hostname", false);
    hdfs.setLong("dfs.heartbeat.interval", 1);
    // Centralized cache directives (hpf cache) need locked memory; 0 leaves caching off.
    hdfs.setLong("dfs.datanode.max.locked.memory", 0);
    HdfsSettings.applyFastClose(hdfs);
    HdfsSettings.applyFastClose(core);
    try (var out = Files.newOutputStream(confDir().resolve("core-site.xml"))) {
      core.writeXml(out);
    }
    try (var out = Files.newOutputStream(confDir().resolve("hdfs-site.xml"))) {
      hdfs.writeXml(out);
    }
    // The daemons log INFO into their files under logs/; a client given this directory as
    // HADOOP_CONF_DIR (hadoop fs -cat, hpf) logs only warnings, and to standard error, never
    // into the output it prints.
    Files.writeString(daemonLogSettings(), log4j("INFO", "System.out"), StandardCharsets.UTF_8);
    Files.writeString(
        confDir().resolve("log4j.properties"), log4j("WARN", "System.err"), StandardCharsets.UTF_8);
  }

  private Path daemonLogSettings() {
    return home.resolve("logs").resolve("log4j-daemons.properties");
  }

  private static String log4j(String level, String target) {
    return "log4j.rootLogger="
        + level
        + ", out\n"
        + "log4j.appender.out=org.apache.log4j.ConsoleAppender\n"
        + "log4j.appender.out.Target="
        + target
        + "\n"
        + "log4j.appender.out.layout=org.apache.log4j.PatternLayout\n"
        + "log4j.appender.out.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n\n"
        + "log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR\n";
  }

  private Process launch(String cp, String mainClass, String log, List<String> args, boolean daemon)
      throws IOException {
    List<String> command = new ArrayList<>();
    if (daemon && Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      command.add("/usr/bin/setsid"); // survives the terminal that started it
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.add("-Dhadoop.log.dir=" + home.resolve("logs"));
    command.add("-Dlog4j.configuration=" + daemonLogSettings().toUri());
    command.add("-cp");
    command.add(cp);
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("HADOOP_CONF_DIR", confDir().toString());
    builder.redirectErrorStream(true);
    builder.redirectOutput(home.resolve("logs").resolve(log + ".log").toFile());
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    return builder.start();
  }

  private void waitFor(Process process, String log, long timeoutMillis) throws IOException {
    try {
      if (!process.waitFor(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IOException(log + " did not finish in time; see " + logFile(log));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          log + " failed (exit " + process.exitValue() + "); see " + logFile(log));
    }
  }

  private Path logFile(String log) {
    return home.resolve("logs").resolve(log + ".log");
  }

  /**
   * Waits until the NameNode has bound its RPC port, as its log says (a connection could reach
   * whichever process took the port instead). False only if it exited because that port was taken;
   * any other exit, or no word in time, is left to {@link #waitUntilReady} to report.
   */
  private boolean awaitBound(Process nameNode, URI uri, long timeoutMillis) throws IOException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    String bound = "Socket Reader #1 for port " + uri.getPort();
    while (System.nanoTime() < deadline) {
      boolean exited = !nameNode.isAlive();
      String log = Files.readString(logFile("namenode"), StandardCharsets.UTF_8);
      if (log.contains(bound)) {
        return true;
      }
      if (exited) {
        return !log.contains("Address already in use");
      }
      sleep(100);
    }
    return true;
  }

  private static void sleep(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }

  private void waitUntilReady(URI uri, int dataNodes, Process nameNode, long timeoutMillis)
      throws IOException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    Configuration conf = new Configuration();
    conf.addResource(new org.apache.hadoop.fs.Path(confDir().resolve("core-site.xml").toUri()));
    conf.addResource(new org.apache.hadoop.fs.Path(confDir().resolve("hdfs-site.xml").toUri()));
    conf.setInt("ipc.client.connect.max.retries", 0);
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!nameNode.isAlive()) {
        throw new IOException("the NameNode exited; see " + logFile("namenode"));
      }
      try (DistributedFileSystem fs =
          (DistributedFileSystem) org.apache.hadoop.fs.FileSystem.newInstance(uri, conf)) {
        int live = fs.getDataNodeStats(DatanodeReportType.LIVE).length;
        if (live >= dataNodes && !fs.isInSafeMode()) {
          return;
        }
        last = live + " of " + dataNodes + " DataNodes registered";
      } catch (IOException e) {
        last = e.getMessage();
      }
      sleep(250);
    }
    throw new IOException(
        "HDFS at "
            + uri
            + " not ready after "
            + timeoutMillis / 1000
            + " s ("
            + last
            + "); see "
            + home.resolve("logs"));
  }

  private static int freePort(int preferred) throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress("127.0.0.1", preferred));
      return s.getLocalPort();
    } catch (IOException busy) {
      try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        return s.getLocalPort();
      }
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "local HDFS in %s", home);
  }
}
