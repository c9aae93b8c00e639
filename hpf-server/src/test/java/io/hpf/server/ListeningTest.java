package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a server listens by default, and what a port already taken says. */
class ListeningTest {
  @TempDir Path root;

  @Test
  void theDefaultIsThisHostOnlyAndATakenPortIsNamed() throws Exception {
    Files.createDirectories(root);
    ServerOptions defaults = new ServerOptions();
    defaults.root = root.toString();
    defaults.port = 0;
    try (HpfServer server = HpfServer.start(defaults)) {
      assertEquals("127.0.0.1", defaults.bindAddress);
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000);
      }
      ServerOptions again = new ServerOptions();
      again.root = root.toString();
      again.port = server.port();
      IOException taken = assertThrows(IOException.class, () -> HpfServer.start(again).close());
      assertEquals(
          "cannot listen on 127.0.0.1:" + server.port() + ": Address already in use",
          taken.getMessage());
    }
  }
}
