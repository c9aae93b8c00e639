package io.hpf.hadoop;

import java.io.Closeable;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 server for tests: SeaweedFS's {@code weed mini} (master, volume server, filer and S3
 * gateway) as a process of its own on loopback ports, with one bucket and one key. The binary is
 * built by {@code scripts/install-seaweedfs.sh} (it is found there, or at {@code $HPF_WEED}).
 */
public final class SeaweedS3 implements Closeable {
  public static final String ACCESS = "HPFSEAWEED";
  public static final String SECRET = "hpf-seaweed-secret";
  public static final String BUCKET = "hpf";

  private final Process process;
  private final int s3Port;
  private final Path dir;
  private final AtomicInteger serial = new AtomicInteger();

  private SeaweedS3(Process process, int s3Port, Path dir) {
    this.process = process;
    this.s3Port = s3Port;
    this.dir = dir;
  }

  /** The weed binary, or null when it has not been built here. */
  public static Path binary() throws IOException {
    String env = System.getenv("HPF_WEED");
    if (env != null) {
      return Path.of(env);
    }
    Path cache = Path.of(System.getProperty("user.home"), ".cache", "hpf");
    if (!Files.isDirectory(cache)) {
      return null;
    }
    try (Stream<Path> dirs = Files.list(cache)) {
      return dirs.filter(d -> d.getFileName().toString().startsWith("seaweedfs-"))
          .map(d -> d.resolve("weed"))
          .filter(Files::isExecutable)
          .max(Comparator.comparing(Path::toString))
          .orElse(null);
    }
  }

  private static SeaweedS3 shared;

  /**
   * The shared server for a test class that needs it; where SeaweedFS is not built, the class is
   * skipped, saying how to build it, unless {@code HPF_REQUIRE_S3} is set ({@code scripts/test.sh}
   * builds it first and sets it: the suite skips nothing its scripts can install).
   */
  public static SeaweedS3 sharedOrSkip() throws Exception {
    if (binary() == null && System.getenv("HPF_REQUIRE_S3") != null) {
      throw new IllegalStateException(
          "SeaweedFS is not built, and the suite requires it: scripts/install-seaweedfs.sh builds"
              + " it");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(
        binary() != null,
        "SeaweedFS is not built here: scripts/install-seaweedfs.sh builds it (once)");
    return shared();
  }

  /** One server for every test class of this JVM; it stops when the JVM exits. */
  public static synchronized SeaweedS3 shared() throws Exception {
    if (shared == null) {
      Path weed = binary();
      if (weed == null) {
        throw new IllegalStateException("SeaweedFS is not built: run scripts/install-seaweedfs.sh");
      }
      SeaweedS3 started = start(weed, Files.createTempDirectory("hpf-seaweed"));
      Runtime.getRuntime().addShutdownHook(new Thread(started::close));
      shared = started;
    }
    return shared;
  }

  static SeaweedS3 start(Path weed, Path dir) throws Exception {
    Path config = dir.resolve("s3.json");
    Files.writeString(
        config,
        "{\"identities\":[{\"name\":\"hpf\",\"credentials\":[{\"accessKey\":\""
            + ACCESS
            + "\",\"secretKey\":\""
            + SECRET
            + "\"}],\"actions\":[\"Admin\",\"Read\",\"Write\",\"List\",\"Tagging\"]}]}",
        StandardCharsets.UTF_8);
    // Each service takes a port and its gRPC port 10000 above it. `weed mini` (master, volume
    // server, filer and S3 gateway in one process) answers its first write within seconds, where
    // `weed server` took 7 to 33 s to grow its first volume.
    int[] ports = freePorts(6);
    List<String> command = new ArrayList<>();
    command.add(weed.toString());
    command.add("mini");
    for (String arg :
        new String[] {
          "-dir=" + dir,
          "-ip=127.0.0.1",
          "-ip.bind=127.0.0.1",
          "-master.port=" + ports[0],
          "-volume.port=" + ports[1],
          "-filer.port=" + ports[2],
          "-s3.port=" + ports[3],
          "-admin.port=" + ports[4],
          "-webdav.port=" + ports[5],
          "-admin.port.legacy=0",
          "-s3.port.iceberg=0",
          "-s3.port.lance=0",
          "-admin.ui=false",
          "-s3.config=" + config,
          "-master.telemetry=false"
        }) {
      command.add(arg);
    }
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("weed.log").toFile())
            .start();
    SeaweedS3 s3 = new SeaweedS3(p, ports[3], dir);
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!listening(ports[3])) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        s3.close();
        throw new IOException("SeaweedFS did not start; its log: " + dir.resolve("weed.log"));
      }
      Thread.sleep(100);
    }
    s3.createBucket();
    return s3;
  }

  private void createBucket() throws InterruptedException {
    try (S3Client client =
        S3Client.builder()
            .endpointOverride(URI.create(endpoint()))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET)))
            .build()) {
      for (int attempt = 0; ; attempt++) {
        try {
          client.createBucket(b -> b.bucket(BUCKET));
          return;
        } catch (RuntimeException e) {
          if (attempt == 50) { // the filer and volume server join the master a moment later
            throw e;
          }
          Thread.sleep(200);
        }
      }
    }
  }

  public String endpoint() {
    return "http://127.0.0.1:" + s3Port;
  }

  /** S3A's settings for this server. */
  public Configuration configuration() {
    Configuration conf = new Configuration();
    properties().forEach(conf::set);
    return conf;
  }

  /** The same settings as -D options of the CLI. */
  public List<String> cliOptions() {
    List<String> out = new ArrayList<>();
    properties()
        .forEach(
            (k, v) -> {
              out.add("-D");
              out.add(k + "=" + v);
            });
    return out;
  }

  /** The settings by name, in order. */
  public java.util.Map<String, String> properties() {
    java.util.Map<String, String> p = new java.util.LinkedHashMap<>();
    p.put("fs.s3a.endpoint", endpoint());
    p.put("fs.s3a.endpoint.region", "us-east-1");
    p.put("fs.s3a.path.style.access", "true");
    p.put("fs.s3a.access.key", ACCESS);
    p.put("fs.s3a.secret.key", SECRET);
    p.put("fs.s3a.attempts.maximum", "2");
    p.put("fs.s3a.retry.limit", "2");
    return p;
  }

  public FileSystem fs() throws IOException {
    return FileSystem.get(URI.create("s3a://" + BUCKET + "/"), configuration());
  }

  /** An s3a:// path no other test has used. */
  public org.apache.hadoop.fs.Path freshPath(String name) {
    return new org.apache.hadoop.fs.Path(
        "s3a://"
            + BUCKET
            + "/t"
            + ProcessHandle.current().pid()
            + "-"
            + serial.incrementAndGet()
            + "/"
            + name);
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Free ports whose gRPC companions (10000 above) are free too. */
  private static int[] freePorts(int n) throws IOException {
    int[] out = new int[n];
    int found = 0;
    while (found < n) {
      try (ServerSocket s = new ServerSocket(0)) {
        int port = s.getLocalPort();
        if (port < 55_000 && free(port + 10_000)) {
          out[found++] = port;
        }
      }
    }
    return out;
  }

  private static boolean free(int port) {
    try (ServerSocket s = new ServerSocket(port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.delete(p);
    } catch (IOException e) {
      // a temporary file: left for the system to clean
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(SeaweedS3::deleteQuietly);
    } catch (IOException e) {
      // a temporary directory: left for the system to clean
    }
  }
}
