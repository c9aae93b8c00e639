package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.WriterOptions;
import io.hpf.server.testing.RawHttp;
import io.hpf.server.testing.TestServer;
import io.hpf.testing.TestArchives;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests meant to escape, exhaust or confuse the server get the right status in JSON, never a
 * stack trace, and the server goes on serving.
 */
class BadRequestsTest {
  @TempDir static Path root;
  static HpfServer server;
  static final byte[] CONTENT = "the content".getBytes(StandardCharsets.UTF_8);

  @BeforeAll
  static void start() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>();
    model.put("a/b.txt", CONTENT);
    model.put("%2e%2e", "a name that looks encoded".getBytes(StandardCharsets.UTF_8));
    TestArchives.write(root.resolve("pub.hpf"), model, WriterOptions.builder().build(), 1);
    TestArchives.write(root.resolve("secret.hpf"), model, WriterOptions.builder().build(), 1);
    Files.writeString(root.resolve("outside.txt"), "must never be served");
    ServerOptions o = TestServer.options(root);
    o.requestTimeoutMillis = 500;
    o.allow = Set.of("pub");
    o.maxMgetNames = 3;
    server = TestServer.start(o);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static RawHttp connect() throws Exception {
    return new RawHttp(server.port());
  }

  void assertStillServes() throws Exception {
    try (RawHttp http = connect()) {
      RawHttp.Response r = http.get("/pub/a/b.txt");
      assertEquals(200, r.status());
      assertArrayEquals(CONTENT, r.body());
    }
  }

  @Test
  void traversalInEveryEncodingIsABadRequest() throws Exception {
    String[] targets = {
      "/pub/../outside.txt",
      "/pub/a/../../outside.txt",
      "/pub/%2e%2e/outside.txt",
      "/pub/%2E%2E/outside.txt",
      "/pub/.%2e/outside.txt",
      "/pub/%2e./outside.txt",
      "/pub/a%2f..%2f..%2foutside.txt",
      "/pub/a/%2e/b.txt",
      "/pub/./a/b.txt",
      "/pub//etc/passwd",
      "//etc/passwd",
      "/pub/a/b.txt%00.jpg",
      "/pub/a%00/b.txt",
      "/pub/%0a",
      "/pub/a%zz",
      "/pub/%c0%ae%c0%ae/outside.txt",
      "pub/a/b.txt",
    };
    for (String target : targets) {
      try (RawHttp http = connect()) {
        RawHttp.Response r = http.get(target);
        assertEquals(400, r.status(), target + ": " + r.bodyText());
        assertTrue(r.bodyText().startsWith("{\"error\":"), r.bodyText());
        assertFalse(r.bodyText().contains("Exception"), r.bodyText());
      }
    }
    // A name that merely looks encoded is an ordinary name, served when asked for encoded once.
    try (RawHttp http = connect()) {
      assertEquals(200, http.get("/pub/%252e%252e").status());
    }
    assertStillServes();
  }

  @Test
  void unknownAndHiddenArchivesAndMissingEntriesAreNotFound() throws Exception {
    try (RawHttp http = connect()) {
      assertEquals(404, http.get("/nope/a/b.txt").status());
      assertEquals(404, http.get("/secret/a/b.txt").status()); // not on the allow-list
      assertEquals(404, http.get("/outside.txt").status());
      RawHttp.Response missing = http.get("/pub/a/c.txt");
      assertEquals(404, missing.status());
      assertEquals(
          "{\"error\":\"no entry 'a/c.txt' in archive 'pub'\",\"status\":404}",
          missing.bodyText().strip());
      assertEquals(404, http.get("/_nothing").status());
    }
    assertStillServes();
  }

  @Test
  void hugeRequestLinesAndHeadersAreRefusedAndTheConnectionClosed() throws Exception {
    try (RawHttp http = connect()) {
      RawHttp.Response r = http.get("/pub/" + "a".repeat(20_000));
      assertEquals(414, r.status());
      assertTrue(http.closedByServer());
    }
    try (RawHttp http = connect()) {
      http.send(
          "GET /pub/a/b.txt HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n");
      RawHttp.Response r = http.read();
      assertEquals(431, r.status());
      assertTrue(http.closedByServer());
    }
    try (RawHttp http = connect()) {
      http.send("BREW /pub/a/b.txt HTTP/1.1\r\nHost: x\r\n\r\n");
      assertEquals(405, http.read().status());
      http.send("this is not http\r\n\r\n");
      RawHttp.Response r = http.read();
      assertTrue(r == null || r.status() == 400, "garbage: " + (r == null ? "closed" : r.status()));
    }
    assertStillServes();
  }

  @Test
  void aClientThatSendsItsRequestSlowlyIsCutOff() throws Exception {
    // Through a real socket; SlowClientGuardTest moves the clock to show where the deadline is.
    try (RawHttp http = connect()) {
      http.send("GET /pub/a/b.txt HTTP/1.1\r\nHost: x\r\n");
      long start = System.nanoTime();
      assertTrue(http.closedByServer(), "a request still incomplete after its timeout");
      long waited = (System.nanoTime() - start) / 1_000_000;
      assertTrue(waited < 5_000, "closed after " + waited + " ms");
    }
    // A request that completes is served, and the next one on the connection too.
    try (RawHttp http = connect()) {
      http.send("GET /pub/a/b.txt HTTP/1.1\r\n");
      http.send("Host: x\r\n\r\n");
      assertEquals(200, http.read().status());
      assertEquals(200, http.get("/pub/a/b.txt").status());
    }
    assertStillServes();
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrder() throws Exception {
    try (RawHttp http = connect()) {
      StringBuilder many = new StringBuilder();
      String[] targets = {"/pub/a/b.txt", "/pub/missing", "/pub/?limit=1", "/pub/a/b.txt"};
      for (String t : targets) {
        many.append("GET ").append(t).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
      }
      http.send(many.toString());
      assertArrayEquals(CONTENT, http.read().body());
      assertEquals(404, http.read().status());
      assertTrue(http.read().bodyText().startsWith("{\"archive\":\"pub\""));
      assertArrayEquals(CONTENT, http.read().body());
    }
  }

  @Test
  void mgetLimitsAndMethodsAreEnforced() throws Exception {
    try (RawHttp http = connect()) {
      String body = "a/b.txt\nx\ny\nz\n";
      http.send(
          "POST /pub/_mget HTTP/1.1\r\nHost: x\r\nContent-Length: "
              + body.length()
              + "\r\n\r\n"
              + body);
      RawHttp.Response r = http.read();
      assertEquals(413, r.status());
      assertTrue(r.bodyText().contains("at most 3"), r.bodyText());
      http.send("POST /pub/a/b.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
      assertEquals(405, http.read().status());
      String big = "x".repeat(2 << 20);
      http.send(
          "POST /pub/_mget HTTP/1.1\r\nHost: x\r\nContent-Length: " + big.length() + "\r\n\r\n");
      RawHttp.Response tooBig = http.read();
      assertEquals(413, tooBig.status());
    }
    assertStillServes();
  }

  @Test
  void aTokenIsRequiredWhenConfigured() throws Exception {
    ServerOptions o = TestServer.options(root);
    o.token = "s3cret";
    try (HpfServer guarded = TestServer.start(o);
        RawHttp http = new RawHttp(guarded.port())) {
      RawHttp.Response r = http.get("/pub/a/b.txt");
      assertEquals(401, r.status());
      assertEquals("Bearer", r.header("www-authenticate"));
      http.send("GET /pub/a/b.txt HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\n\r\n");
      assertEquals(401, http.read().status());
      http.send("GET /pub/a/b.txt HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n\r\n");
      RawHttp.Response ok = http.read();
      assertEquals(200, ok.status());
      assertArrayEquals(CONTENT, ok.body());
      http.send("GET /_metrics HTTP/1.1\r\nHost: x\r\n\r\n");
      assertEquals(401, http.read().status());
    }
  }

  @Test
  void connectionsOverTheLimitAreClosed() throws Exception {
    ServerOptions o = TestServer.options(root);
    o.maxConnections = 2;
    try (HpfServer limited = TestServer.start(o);
        RawHttp first = new RawHttp(limited.port());
        RawHttp second = new RawHttp(limited.port())) {
      assertEquals(200, first.get("/pub/a/b.txt").status());
      assertEquals(200, second.get("/pub/a/b.txt").status());
      try (RawHttp third = new RawHttp(limited.port())) {
        assertTrue(third.closedByServer());
      }
      assertEquals(200, first.get("/pub/a/b.txt").status());
    }
  }
}
