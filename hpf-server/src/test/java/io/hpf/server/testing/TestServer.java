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
}
