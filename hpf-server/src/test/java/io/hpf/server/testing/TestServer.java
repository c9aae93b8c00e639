package io.hpf.server.testing;

import io.hpf.server.HpfServer;
import io.hpf.server.ServerOptions;
import java.nio.file.Path;

/** Servers for tests: on loopback, any free port, small worker pool. */
public final class TestServer {
  private TestServer() {}

  public static ServerOptions options(Path root) {
    ServerOptions o = new ServerOptions();
    o.root = root.toString();
    o.bindAddress = "127.0.0.1";
    o.port = 0;
    o.workerThreads = 8;
    o.ioThreads = 2;
    return o;
  }

  public static HpfServer start(ServerOptions o) throws Exception {
    return HpfServer.start(o);
  }

  public static String base(HpfServer server) {
    return "http://127.0.0.1:" + server.port();
  }

  /**
   * Commits entry {@code name} ("new") to the archive at {@code dir} of a Hadoop file system and
   * asserts that the server answers it within a second (its refresh promise), polling.
   */
  public static void commitIsServedWithinASecond(
      org.apache.hadoop.fs.FileSystem fs,
      org.apache.hadoop.fs.Path dir,
      io.hpf.server.client.HpfHttpClient client,
      String archive,
      String name)
      throws Exception {
    byte[] content = "new".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try (io.hpf.archive.ArchiveWriter w =
        io.hpf.archive.ArchiveWriter.open(
            io.hpf.hadoop.HadoopStorage.open(
                fs, dir, io.hpf.hadoop.HadoopStorageOptions.DEFAULTS, false),
            io.hpf.archive.model.WriterOptions.builder().build())) {
      w.add(name, content, io.hpf.archive.model.EntryMetadata.of(0));
      w.commit();
    }
    long committed = System.nanoTime();
    byte[] got;
    while ((got = client.get(archive, name)) == null) {
      org.junit.jupiter.api.Assertions.assertTrue(
          System.nanoTime() - committed < 1_000_000_000L, "commit not seen in 1 s");
      Thread.sleep(20);
    }
    org.junit.jupiter.api.Assertions.assertArrayEquals(content, got);
  }
}
