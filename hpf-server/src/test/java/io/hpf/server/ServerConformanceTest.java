package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.server.client.EntryStat;
import io.hpf.server.client.HpfHttpClient;
import io.hpf.server.client.ListPage;
import io.hpf.server.testing.TestServer;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.ModelArchive;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every entry of archives in every codec (three commits: segments, tombstones, replacements, a
 * large entry) fetched over HTTP equals the model; HEAD, ETag and 304, ranges and 416, listing
 * pages with and without the delimiter, and _mget with missing names.
 */
class ServerConformanceTest {
  @TempDir static Path root;
  static final Map<Codec, ModelArchive> MODELS = new EnumMap<>(Codec.class);
  static HpfServer server;
  static HpfHttpClient client;
  static final HttpClient RAW = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    for (Codec codec : Codec.values()) {
      Path dir = root.resolve("set/" + codec.name().toLowerCase(Locale.ROOT) + ".hpf");
      MODELS.put(codec, ModelArchive.write(dir, codec, 300, 40 + codec.ordinal()));
    }
    server = TestServer.start(TestServer.options(root));
    client = HpfHttpClient.of(TestServer.base(server));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static String archive(Codec codec) {
    return "set/" + codec.name().toLowerCase(Locale.ROOT);
  }

  @Test
  void everyEntryEqualsTheModelAndDeletedNamesAreGone() throws Exception {
    for (Codec codec : Codec.values()) {
      ModelArchive made = MODELS.get(codec);
      for (Map.Entry<String, byte[]> e : made.live().entrySet()) {
        assertArrayEquals(e.getValue(), client.get(archive(codec), e.getKey()), e.getKey());
      }
      for (String name : made.deleted()) {
        assertNull(client.get(archive(codec), name), name);
      }
      assertNull(client.get(archive(codec), "no/such-entry"));
    }
    // Twice: the second time raw large entries go out with sendfile, already checked.
    for (Codec codec : Codec.values()) {
      byte[] large = MODELS.get(codec).live().get("large/one.bin");
      assertArrayEquals(large, client.get(archive(codec), "large/one.bin"));
      assertArrayEquals(large, client.get(archive(codec), "large/one.bin"));
    }
  }

  @Test
  void headGivesLengthAndTheChecksumAsETagAndAMatchIsNotModified() throws Exception {
    for (Codec codec : Codec.values()) {
      for (Map.Entry<String, byte[]> e : sample(MODELS.get(codec).live(), 20).entrySet()) {
        EntryStat stat = client.stat(archive(codec), e.getKey());
        assertEquals(e.getValue().length, stat.length());
        String etag = etag(e.getValue());
        assertEquals(etag, stat.etag());
        HttpResponse<byte[]> notModified =
            RAW.send(
                HttpRequest.newBuilder(uri(codec, e.getKey()))
                    .header("If-None-Match", "\"00000000\", " + etag)
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(304, notModified.statusCode());
        assertEquals(0, notModified.body().length);
        HttpResponse<byte[]> changed =
            RAW.send(
                HttpRequest.newBuilder(uri(codec, e.getKey()))
                    .header("If-None-Match", "\"00000000\"")
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, changed.statusCode());
        assertArrayEquals(e.getValue(), changed.body());
      }
    }
  }

  @Test
  void rangesGiveTheirBytesAndRangesOutsideAreUnsatisfiable() throws Exception {
    SplittableRandom random = new SplittableRandom(5);
    for (Codec codec : Codec.values()) {
      Map<String, byte[]> sample = sample(MODELS.get(codec).live(), 15);
      sample.put("large/one.bin", MODELS.get(codec).live().get("large/one.bin"));
      for (Map.Entry<String, byte[]> e : sample.entrySet()) {
        byte[] content = e.getValue();
        if (content.length == 0) {
          assertEquals(416, status(codec, e.getKey(), "bytes=0-0"));
          continue;
        }
        int start = random.nextInt(content.length);
        int length = 1 + random.nextInt(content.length - start);
        assertArrayEquals(
            Arrays.copyOfRange(content, start, start + length),
            client.getRange(archive(codec), e.getKey(), start, length),
            e.getKey());
        HttpResponse<byte[]> suffix = get(codec, e.getKey(), "bytes=-10");
        assertEquals(206, suffix.statusCode());
        assertArrayEquals(
            Arrays.copyOfRange(content, Math.max(0, content.length - 10), content.length),
            suffix.body());
        HttpResponse<byte[]> outside = get(codec, e.getKey(), "bytes=" + content.length + "-");
        assertEquals(416, outside.statusCode());
        assertEquals(
            "bytes */" + content.length,
            outside.headers().firstValue("content-range").orElse(null));
        // Several ranges are answered with the whole entry, as RFC 9110 allows.
        HttpResponse<byte[]> several = get(codec, e.getKey(), "bytes=0-0,2-3");
        assertEquals(200, several.statusCode());
        assertArrayEquals(content, several.body());
      }
    }
  }

  @Test
  void listingPagesWalkTheModelWithAndWithoutTheDelimiter() throws Exception {
    for (Codec codec : Codec.values()) {
      TreeMap<String, byte[]> live = MODELS.get(codec).live();
      for (String prefix : prefixes(live)) {
        assertEquals(expectedFlat(live, prefix), listAll(codec, prefix, false, 37), prefix);
        assertEquals(expectedRolledUp(live, prefix), listAll(codec, prefix, true, 5), prefix);
      }
    }
  }

  @Test
  void mgetAnswersFoundNamesAndMarksMissingOnes() throws Exception {
    for (Codec codec : Codec.values()) {
      TreeMap<String, byte[]> live = MODELS.get(codec).live();
      Map<String, byte[]> sample = sample(live, 50);
      List<String> names = new ArrayList<>(sample.keySet());
      names.add(2, "no/such-entry");
      names.add(MODELS.get(codec).deleted().get(0));
      Map<String, byte[]> got = client.mget(archive(codec), names);
      assertEquals(new ArrayList<>(sample.keySet()), new ArrayList<>(got.keySet()));
      for (Map.Entry<String, byte[]> e : sample.entrySet()) {
        assertArrayEquals(e.getValue(), got.get(e.getKey()), e.getKey());
      }
    }
  }

  @Test
  void theRootListsTheArchivesAndMetricsCountTheRequests() throws Exception {
    HttpResponse<String> archives =
        RAW.send(
            HttpRequest.newBuilder(URI.create(TestServer.base(server) + "/")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals("{\"archives\":[\"set/lz4\",\"set/none\",\"set/zstd\"]}", archives.body().strip());
    for (Codec codec : Codec.values()) {
      client.get(archive(codec), MODELS.get(codec).live().firstKey());
    }
    String metrics =
        RAW.send(
                HttpRequest.newBuilder(URI.create(TestServer.base(server) + "/_metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertTrue(metrics.contains("hpf_requests_total{route=\"get\",status=\"200\"}"), metrics);
    assertTrue(metrics.contains("hpf_open_readers 3"), metrics);
    assertTrue(metrics.contains("hpf_request_duration_seconds_bucket{route=\"get\",le=\"+Inf\"}"));
  }

  @Test
  void aRootThatIsOneArchiveServesItUnderItsName() throws Exception {
    ServerOptions o = TestServer.options(root.resolve("set/lz4.hpf"));
    try (HpfServer single = TestServer.start(o)) {
      HpfHttpClient one = HpfHttpClient.of(TestServer.base(single));
      Map.Entry<String, byte[]> first = MODELS.get(Codec.LZ4).live().firstEntry();
      assertArrayEquals(first.getValue(), one.get("lz4", first.getKey()));
      assertNull(one.get("zstd", first.getKey()), "an archive outside the root");
    }
  }

  private static List<String> listAll(Codec codec, String prefix, boolean rollUp, int limit)
      throws Exception {
    List<String> out = new ArrayList<>();
    String after = null;
    do {
      ListPage page = client.list(archive(codec), prefix, rollUp, after, limit);
      assertTrue(page.entries().size() + page.prefixes().size() <= limit);
      // A page's entries and prefixes come back in two arrays: merged they are in order.
      TreeSet<String> merged = new TreeSet<>(ArchiveModel::compareUtf8);
      page.entries().forEach(e -> merged.add(e.name()));
      merged.addAll(page.prefixes());
      out.addAll(merged);
      for (ListPage.Listed e : page.entries()) {
        assertEquals(
            MODELS.get(codec).live().get(e.name()).length, e.length(), "length of " + e.name());
      }
      after = page.next();
    } while (after != null);
    return out;
  }

  private static List<String> expectedFlat(TreeMap<String, byte[]> live, String prefix) {
    List<String> out = new ArrayList<>();
    for (String name : live.keySet()) {
      if (name.startsWith(prefix)) {
        out.add(name);
      }
    }
    return out;
  }

  private static List<String> expectedRolledUp(TreeMap<String, byte[]> live, String prefix) {
    TreeSet<String> out = new TreeSet<>(ArchiveModel::compareUtf8);
    for (String name : live.keySet()) {
      if (name.startsWith(prefix)) {
        int slash = name.indexOf('/', prefix.length());
        out.add(slash < 0 ? name : name.substring(0, slash + 1));
      }
    }
    return new ArrayList<>(out);
  }

  /** The empty prefix, every directory of the model, and a partial name. */
  private static List<String> prefixes(TreeMap<String, byte[]> live) {
    TreeSet<String> dirs = new TreeSet<>();
    dirs.add("");
    for (String name : live.keySet()) {
      int slash = name.lastIndexOf('/');
      if (slash > 0) {
        dirs.add(name.substring(0, slash + 1));
      }
    }
    List<String> out = new ArrayList<>(dirs);
    out.add(live.firstKey().substring(0, 2));
    return out;
  }

  private static Map<String, byte[]> sample(TreeMap<String, byte[]> live, int n) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    List<String> names = new ArrayList<>(live.keySet());
    SplittableRandom random = new SplittableRandom(n);
    while (out.size() < Math.min(n, names.size())) {
      String name = names.get(random.nextInt(names.size()));
      out.put(name, live.get(name));
    }
    return out;
  }

  private static String etag(byte[] content) {
    CRC32C crc = new CRC32C();
    crc.update(content);
    return String.format(Locale.ROOT, "\"%08x\"", crc.getValue());
  }

  private static URI uri(Codec codec, String name) {
    return URI.create(
        TestServer.base(server) + "/" + archive(codec) + "/" + HpfHttpClient.encodePath(name));
  }

  private static HttpResponse<byte[]> get(Codec codec, String name, String range) throws Exception {
    HttpResponse<byte[]> r =
        RAW.send(
            HttpRequest.newBuilder(uri(codec, name)).header("Range", range).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertNotNull(r);
    return r;
  }

  private static int status(Codec codec, String name, String range) throws Exception {
    return get(codec, name, range).statusCode();
  }
}
