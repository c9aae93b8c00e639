package io.hpf.server;

import io.hpf.server.ring.Ring;
import io.hpf.server.ring.RingMember;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hpf serve}: the read server's command line. */
@Command(
    name = "hpf serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serves the archives under ROOT over HTTP: GET/HEAD an entry, list by prefix, _mget many;",
      "and the S3 API on the same port (archives as buckets, entries as keys).",
      "",
      "  hpf serve /data/archives --port 8080",
      "  hpf serve hdfs://nn:9000/data/ --port 8080 --memory 2g",
      "  hpf serve s3a://bucket/archives/ --port 8080            # archives in S3 (S3A)",
      "  curl http://127.0.0.1:8080/photos/2024/01/cat.jpg",
      "  curl 'http://127.0.0.1:8080/photos/?prefix=2024/01/&delimiter=/&limit=1000'",
      "  hpf serve /data/archives --ring servers.txt --id s2 --port 8081",
      "  hpf serve /data/archives --s3-keys keys.txt",
      "  aws --endpoint-url http://127.0.0.1:8080 s3 ls s3://photos/2024/",
      "  hpf serve /data/archives --s3-keys keys.txt --writable    # takes writes",
      "  aws --endpoint-url http://127.0.0.1:8080 s3 cp a.jpg s3://photos/2024/a.jpg",
      "",
      "docs/SERVER.md documents every route, the _mget framing, the ring and the S3 API."
    })
public final class ServeMain implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "ROOT",
      description =
          "A directory searched for *.hpf archives, or one archive; local, hdfs:// or s3a://.")
  String root;

  @Option(names = "--port", description = "Port to listen on (default: ${DEFAULT-VALUE}).")
  int port = 8080;

  @Option(
      names = "--bind",
      description =
          "Address to listen on (default: ${DEFAULT-VALUE}, this host only; 0.0.0.0 for every"
              + " interface, which the server says at start).")
  String bind = "127.0.0.1";

  @Option(
      names = "--memory",
      description =
          "Index memory for open archives, e.g. 512m, 2g (default: ${DEFAULT-VALUE}); the most"
              + " requested archives stay open first.")
  String memory = "1g";

  @Option(names = "--hot-k", description = "Size of the hot set (default: ${DEFAULT-VALUE}).")
  int hotK = 64;

  @Option(
      names = "--window",
      description = "Popularity window in seconds (default: ${DEFAULT-VALUE}).")
  long windowSeconds = 60;

  @Option(
      names = "--idle",
      description = "Close archives outside the hot set unused this many seconds (default: 60).")
  long idleSeconds = 60;

  @Option(
      names = "--refresh-ms",
      description = "How often open archives are checked for new commits (default: 500).")
  long refreshMillis = 500;

  @Option(names = "--token-file", description = "Require 'Authorization: Bearer <token>'.")
  Path tokenFile;

  @Option(
      names = "--s3-keys",
      paramLabel = "FILE",
      description =
          "Require S3 requests signed (AWS Signature V4) with a key of FILE: lines 'ACCESS_KEY"
              + " SECRET_KEY'. Without it, S3 reads are anonymous.")
  Path s3KeysFile;

  @Option(
      names = "--s3-domain",
      paramLabel = "DOMAIN",
      description =
          "Also take virtual-host-style S3 requests: a Host of BUCKET.DOMAIN names the bucket"
              + " (DNS must send *.DOMAIN here).")
  String s3Domain;

  @Option(
      names = "--allow",
      split = ",",
      description = "Serve only these archive ids (comma-separated).")
  Set<String> allow;

  @Option(names = "--max-connections", description = "Default: ${DEFAULT-VALUE}.")
  int maxConnections = 10_000;

  @Option(names = "--max-mget", description = "Names per _mget (default: ${DEFAULT-VALUE}).")
  int maxMget = 1000;

  @Option(names = "--threads", description = "Event-loop threads (default: one per core).")
  int ioThreads;

  @Option(names = "--ring", description = "The ring file: one '<id> <host:port>' per line.")
  Path ringFile;

  @Option(names = "--id", description = "This server's id in the ring (default: by --port).")
  String selfId;

  @Option(names = "--proxy", description = "Proxy requests for other servers' archives.")
  boolean proxy;

  @Option(
      names = "--replicate-min",
      description =
          "In a ring, serve another server's archive once asked for this often in the window"
              + " (default: ${DEFAULT-VALUE}).")
  long replicateMin = 100;

  @Option(
      names = "--writable",
      description =
          "Take writes: S3 PutObject, DeleteObject(s), CopyObject, CreateBucket (with --s3-keys),"
              + " HTTP PUT and DELETE (with --token-file); each answered once committed.")
  boolean writable;

  @Option(
      names = "--max-object-size",
      description = "The largest object a PUT takes (default: ${DEFAULT-VALUE}).")
  String maxObjectSize = "64m";

  @Option(names = "-D", paramLabel = "KEY=VALUE", description = "A Hadoop setting (repeatable).")
  Map<String, String> properties = new LinkedHashMap<>();

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new ServeMain());
    cli.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          cmd.getErr().println("hpf serve: " + describe(e));
          return 1;
        });
    System.exit(cli.execute(args));
  }

  @Override
  public Integer call() throws Exception {
    ServerOptions o = new ServerOptions();
    o.root = root;
    o.port = port;
    o.bindAddress = bind;
    o.memoryBytes = parseSize(memory);
    o.hotK = hotK;
    o.windowMillis = windowSeconds * 1000;
    o.idleReaderMillis = idleSeconds * 1000;
    o.refreshMillis = refreshMillis;
    o.allow = allow;
    o.maxConnections = maxConnections;
    o.maxMgetNames = maxMget;
    o.ioThreads = ioThreads;
    o.proxy = proxy;
    o.replicateMin = replicateMin;
    o.hadoopProperties = properties;
    if (tokenFile != null) {
      o.token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      if (o.token.isEmpty()) {
        throw new IllegalArgumentException(tokenFile + ": the token file is empty");
      }
    }
    o.s3Domain = s3Domain == null ? null : s3Domain.toLowerCase(Locale.ROOT);
    if (s3KeysFile != null) {
      o.s3Keys = io.hpf.server.s3.S3Keys.read(s3KeysFile);
    }
    o.writable = writable;
    long maxObject = parseSize(maxObjectSize);
    if (maxObject < 1 || maxObject > Integer.MAX_VALUE - (2 << 20)) {
      throw new IllegalArgumentException("--max-object-size is from 1 byte to just under 2g");
    }
    o.maxObjectBytes = (int) maxObject;
    if (writable && o.token == null && o.s3Keys == null) {
      throw new IllegalArgumentException(
          "--writable needs --s3-keys or --token-file: writes are taken only from those who sign"
              + " or hold the token");
    }
    if (ringFile != null) {
      o.ring = Ring.read(ringFile);
      o.selfId = selfId != null ? selfId : idByPort(o.ring, port);
      if (o.ring.member(o.selfId) == null) {
        throw new IllegalArgumentException(ringFile + ": no server '" + o.selfId + "' in the ring");
      }
    }
    try (HpfServer server = HpfServer.start(o)) {
      Runtime.getRuntime().addShutdownHook(new Thread(server::close));
      stopWhenTheCommandDies();
      server.awaitClose();
    }
    return 0;
  }

  /**
   * Started by the {@code hpf} command (which runs the server as its child, passing its pid), the
   * server stops when that command is killed outright ({@code kill -9} gives it no chance to stop
   * its child): otherwise a server nobody started any more would keep the port and the archives'
   * locks. Pending writes are committed as at any stop.
   */
  private static void stopWhenTheCommandDies() {
    String pid = System.getProperty("hpf.commandPid");
    if (pid == null) {
      return;
    }
    java.util.Optional<ProcessHandle> command = ProcessHandle.of(Long.parseLong(pid));
    Thread watch =
        new Thread(
            () -> {
              while (command.isPresent() && command.get().isAlive()) {
                try {
                  Thread.sleep(200);
                } catch (InterruptedException e) {
                  return;
                }
              }
              io.hpf.server.ServerLog.warn(
                  "the hpf command that started this server is gone: stopping");
              System.exit(1);
            },
            "hpf-command-watch");
    watch.setDaemon(true);
    watch.start();
  }

  /** The one ring member listening on this port. */
  private static String idByPort(Ring ring, int port) {
    String found = null;
    for (RingMember m : ring.members()) {
      if (m.address().endsWith(":" + port)) {
        if (found != null) {
          throw new IllegalArgumentException(
              "several servers of the ring use port " + port + ": say which with --id");
        }
        found = m.id();
      }
    }
    if (found == null) {
      throw new IllegalArgumentException("no server of the ring uses port " + port + ": use --id");
    }
    return found;
  }

  /** "512m", "2g", "1048576" to bytes. */
  static long parseSize(String s) {
    String t = s.strip().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g") || t.endsWith("t")) {
      char c = t.charAt(t.length() - 1);
      unit = c == 'k' ? 1L << 10 : c == 'm' ? 1L << 20 : c == 'g' ? 1L << 30 : 1L << 40;
      t = t.substring(0, t.length() - 1);
    }
    try {
      long n = Long.parseLong(t);
      if (n < 0 || n > Long.MAX_VALUE / unit) {
        throw new NumberFormatException();
      }
      return n * unit;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a size: '" + s + "' (say 512m or 2g)", e);
    }
  }

  private static String describe(Throwable e) {
    if (e instanceof java.net.BindException) {
      return "cannot listen there: " + e.getMessage();
    }
    return io.hpf.hadoop.ProgramMessages.describe(e);
  }
}
