package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.WriterOptions;
import io.hpf.server.client.HpfHttpClient;
import io.hpf.server.ring.Ring;
import io.hpf.server.ring.RingMember;
import io.hpf.server.testing.RawHttp;
import io.hpf.server.testing.TestServer;
import io.hpf.testing.TestArchives;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three servers over the same archives placed by a ring: clients go to the owner, others redirect
 * (or proxy), a hot archive is served where it is asked for, and clients fall back when a server
 * stops.
 */
class RingServersTest {
  @TempDir Path root;

  static byte[] content(String archive) {
    return ("content of " + archive).getBytes(StandardCharsets.UTF_8);
  }

  List<String> writeArchives(int n) throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = "a" + i;
      TreeMap<String, byte[]> model = new TreeMap<>();
      model.put("x.txt", content(id));
      TestArchives.write(root.resolve(id + ".hpf"), model, WriterOptions.builder().build(), 1);
      ids.add(id);
    }
    return ids;
  }

  /**
   * A port free now, below Linux's ephemeral range (32768 and up): a ring's ports are chosen before
   * its servers start, and an ephemeral port could meanwhile go to another process's connection
   * (the suite runs two modules at once).
   */
  static int freePort() throws Exception {
    java.util.SplittableRandom random = new java.util.SplittableRandom();
    for (int tries = 0; ; tries++) {
      int port = 20_000 + random.nextInt(12_000);
      try (ServerSocket s =
          new ServerSocket(port, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
        return s.getLocalPort();
      } catch (java.io.IOException taken) {
        if (tries == 100) {
          throw taken;
        }
      }
    }
  }

  /** The servers' clock: moved by the tests, never by time passing. */
  private final java.util.concurrent.atomic.AtomicLong nanos =
      new java.util.concurrent.atomic.AtomicLong(1_000_000_000_000L);

  List<HpfServer> startRing(Ring ring, boolean proxy, long replicateMin) throws Exception {
    return startRing(ring, proxy, replicateMin, false);
  }

  List<HpfServer> startRing(Ring ring, boolean proxy, long replicateMin, boolean writable)
      throws Exception {
    List<HpfServer> servers = new ArrayList<>();
    for (RingMember m : ring.members()) {
      ServerOptions o = TestServer.options(root);
      if (writable) {
        o.writable = true;
        o.token = TOKEN;
        java.nio.file.Path keys = root.resolve("keys.txt");
        java.nio.file.Files.writeString(keys, "RINGKEY ring/secret\n");
        o.s3Keys = io.hpf.server.s3.S3Keys.read(keys);
      }
      o.nanoClock = nanos::get;
      o.port = Integer.parseInt(m.address().substring(m.address().indexOf(':') + 1));
      o.ring = ring;
      o.selfId = m.id();
      o.proxy = proxy;
      o.replicateMin = replicateMin;
      servers.add(TestServer.start(o));
    }
    return servers;
  }

  static Ring ring(int n) throws Exception {
    List<RingMember> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      members.add(new RingMember("s" + i, "127.0.0.1:" + freePort()));
    }
    return new Ring(members, Ring.DEFAULT_VIRTUAL_NODES);
  }

  static void closeAll(List<HpfServer> servers) {
    servers.forEach(HpfServer::close);
  }

  /** The server of member "s<i>": the i-th started. */
  static HpfServer serverOf(List<HpfServer> servers, RingMember m) {
    return servers.get(Integer.parseInt(m.id().substring(1)));
  }

  static int portOf(RingMember m) {
    return Integer.parseInt(m.address().substring(m.address().indexOf(':') + 1));
  }

  @Test
  void clientsGoToOwnersOthersRedirectAndAStoppedServerIsFallenBackFrom() throws Exception {
    List<String> archives = writeArchives(12);
    Ring ring = ring(3);
    List<HpfServer> servers = startRing(ring, false, 1_000_000);
    try {
      HpfHttpClient client = HpfHttpClient.of(ring);
      for (String a : archives) {
        assertArrayEquals(content(a), client.get(a, "x.txt"), a);
      }
      // Each server opened only the archives it owns: the client placed every request.
      for (int i = 0; i < 3; i++) {
        String id = "s" + i;
        for (String a : archives) {
          assertEquals(
              ring.owner(a).id().equals(id), servers.get(i).readers().isOpen(a), a + " on " + id);
        }
      }
      // Asked directly, a server that does not own an archive redirects to its owner.
      for (String a : archives) {
        RingMember owner = ring.owner(a);
        RingMember other = ring.preference(a).get(1);
        try (RawHttp http = new RawHttp(portOf(other))) {
          RawHttp.Response r = http.get("/" + a + "/x.txt");
          assertEquals(307, r.status());
          assertEquals(owner.baseUri() + "/" + a + "/x.txt", r.header("location"));
        }
      }
      // An S3 client is answered by the server it asks (it cannot follow a signed redirect).
      for (String a : archives) {
        RingMember other = ring.preference(a).get(1);
        try (RawHttp http = new RawHttp(portOf(other))) {
          RawHttp.Response r = http.get("/" + a + "/x.txt?x-id=GetObject");
          assertEquals(200, r.status(), a);
        }
      }
      // The owner of a0 stops: the client falls back to the next server, which answers.
      RingMember owner = ring.owner("a0");
      serverOf(servers, owner).close();
      assertArrayEquals(content("a0"), client.get("a0", "x.txt"));
      RingMember next = ring.preference("a0").get(1);
      assertTrue(serverOf(servers, next).readers().isOpen("a0"));
    } finally {
      closeAll(servers);
    }
  }

  @Test
  void aProxyAnswersForTheOwnerAndAHotArchiveIsServedWhereItIsAsked() throws Exception {
    List<String> archives = writeArchives(6);
    Ring ring = ring(2);
    List<HpfServer> servers = startRing(ring, true, 20);
    try {
      for (String a : archives) {
        RingMember other = ring.preference(a).get(1);
        try (RawHttp http = new RawHttp(portOf(other))) {
          RawHttp.Response r = http.get("/" + a + "/x.txt");
          assertEquals(200, r.status(), a);
          assertArrayEquals(content(a), r.body());
          HpfServer otherServer = serverOf(servers, other);
          assertTrue(!otherServer.readers().isOpen(a), "the proxy opened " + a);
          // Asked often enough, the archive is hot here and served without its owner.
          for (int i = 0; i < 25; i++) {
            assertEquals(200, http.get("/" + a + "/x.txt").status());
          }
          nanos.addAndGet(150_000_000L); // the hot set is recomputed at most ten times a second
          assertEquals(200, http.get("/" + a + "/x.txt").status());
          assertTrue(otherServer.readers().isOpen(a), a + " not replicated to " + other.id());
          assertNotEquals(ring.owner(a), other);
        }
      }
    } finally {
      closeAll(servers);
    }
  }

  static final String TOKEN = "ring-token";

  static java.net.http.HttpResponse<byte[]> put(int port, String path, String body)
      throws Exception {
    return java.net.http.HttpClient.newHttpClient()
        .send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + TOKEN)
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void onlyAnArchivesOwnerWritesItTheOthersProxyOrRedirect() throws Exception {
    List<String> archives = writeArchives(4);
    Ring ring = ring(2);
    for (boolean proxy : new boolean[] {true, false}) {
      List<HpfServer> servers = startRing(ring, proxy, 1_000_000, true);
      try {
        for (String a : archives) {
          RingMember other = ring.preference(a).get(1);
          String path = "/" + a + "/new-" + proxy + ".txt";
          var answer = put(portOf(other), path, "written through " + other.id());
          if (!proxy) {
            assertEquals(307, answer.statusCode(), a);
            String location = answer.headers().firstValue("location").orElseThrow();
            assertEquals(ring.owner(a).baseUri() + path, location);
            answer = put(portOf(ring.owner(a)), path, "written through " + other.id());
          }
          assertEquals(
              201,
              answer.statusCode(),
              a + ": " + new String(answer.body(), StandardCharsets.UTF_8));
          // The owner took it: its writer, not the other's, holds the archive.
          assertTrue(serverOf(servers, ring.owner(a)).writes().isWriting(a), a);
          assertTrue(!serverOf(servers, other).writes().isWriting(a), a);
          var read =
              java.net.http.HttpClient.newHttpClient()
                  .send(
                      java.net.http.HttpRequest.newBuilder(
                              java.net.URI.create(
                                  "http://127.0.0.1:" + portOf(ring.owner(a)) + path))
                          .header("Authorization", "Bearer " + TOKEN)
                          .build(),
                      java.net.http.HttpResponse.BodyHandlers.ofString());
          assertEquals("written through " + other.id(), read.body());
        }
      } finally {
        closeAll(servers);
      }
    }
  }

  @Test
  void s3WritesAskedOfAnotherServerAreSignedAnewAndWrittenByTheOwner() throws Exception {
    List<String> archives = writeArchives(4);
    Ring ring = ring(2);
    List<HpfServer> servers = startRing(ring, false, 1_000_000, true);
    try {
      for (String a : archives) {
        RingMember other = ring.preference(a).get(1);
        try (software.amazon.awssdk.services.s3.S3Client s3 =
            software.amazon.awssdk.services.s3.S3Client.builder()
                .endpointOverride(java.net.URI.create(other.baseUri()))
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(
                    software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                            "RINGKEY", "ring/secret")))
                .build()) {
          byte[] content = ("via " + other.id() + " into " + a).getBytes(StandardCharsets.UTF_8);
          // The SDK sends aws-chunked with signed chunks and a trailing checksum.
          s3.putObject(
              b -> b.bucket(a).key("s3/new.txt"),
              software.amazon.awssdk.core.sync.RequestBody.fromBytes(content));
          s3.putObject(
              b -> b.bucket(a).key("s3/gone.txt"),
              software.amazon.awssdk.core.sync.RequestBody.fromBytes(content));
          s3.deleteObject(b -> b.bucket(a).key("s3/gone.txt"));
          assertTrue(serverOf(servers, ring.owner(a)).writes().isWriting(a), a);
          assertTrue(!serverOf(servers, other).writes().isWriting(a), a);
          assertArrayEquals(
              content, s3.getObjectAsBytes(b -> b.bucket(a).key("s3/new.txt")).asByteArray());
          var refused =
              org.junit.jupiter.api.Assertions.assertThrows(
                  software.amazon.awssdk.services.s3.model.S3Exception.class,
                  () -> s3.headObject(b -> b.bucket(a).key("s3/gone.txt")));
          assertEquals(404, refused.statusCode());
        }
      }
    } finally {
      closeAll(servers);
    }
  }
}
