package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.server.s3.S3Keys;
import io.hpf.server.testing.RawHttp;
import io.hpf.server.testing.TestServer;
import io.hpf.testing.ModelArchive;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * The S3 API of {@code hpf serve}, read by Hadoop's own S3A client (AWS SDK v2, signing every
 * request) from a server with keys, and checked request by request against a server without keys:
 * listings page by page against the model, XML errors with S3's codes, conditions, checksums.
 */
class S3ApiTest {
  static final String ACCESS = "HPFTESTKEY";
  static final String SECRET = "hpf-test-secret/with+chars";
  @TempDir static Path root;
  static ModelArchive photos;
  static HpfServer signed;
  static HpfServer anonymous;
  static FileSystem s3a;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    photos = ModelArchive.write(root.resolve("photos.hpf"), Codec.ZSTD, 400, 31);
    ModelArchive.write(root.resolve("nested/inner.hpf"), Codec.LZ4, 5, 32);
    Path keys = root.resolve("keys.txt");
    Files.writeString(keys, "# test keys\n" + ACCESS + " " + SECRET + "\n");
    ServerOptions withKeys = TestServer.options(root);
    withKeys.s3Keys = S3Keys.read(keys);
    signed = TestServer.start(withKeys);
    ServerOptions open = TestServer.options(root);
    open.s3Domain = "s3.test";
    anonymous = TestServer.start(open);
    s3a = FileSystem.newInstance(URI.create("s3a://photos/"), s3aSettings(SECRET));
  }

  @AfterAll
  static void stop() throws Exception {
    s3a.close();
    signed.close();
    anonymous.close();
  }

  static Configuration s3aSettings(String secret) {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.endpoint", TestServer.base(signed));
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.setBoolean("fs.s3a.path.style.access", true);
    conf.set("fs.s3a.access.key", ACCESS);
    conf.set("fs.s3a.secret.key", secret);
    conf.setInt("fs.s3a.attempts.maximum", 1);
    conf.setInt("fs.s3a.retry.limit", 1);
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    return conf;
  }

  @Test
  void s3aListsEveryEntryAndReadsTheirBytes() throws Exception {
    TreeMap<String, Long> listed = new TreeMap<>();
    RemoteIterator<LocatedFileStatus> files =
        s3a.listFiles(new org.apache.hadoop.fs.Path("s3a://photos/"), true);
    while (files.hasNext()) {
      LocatedFileStatus f = files.next();
      listed.put(f.getPath().toUri().getPath().substring(1), f.getLen());
    }
    TreeMap<String, Long> expected = new TreeMap<>();
    photos.live().forEach((name, content) -> expected.put(name, (long) content.length));
    assertEquals(expected, listed);
    // The bytes of every fifth entry: each open is a HEAD and a GET of S3A's (the server's
    // answers for every entry are ServerConformanceTest's, and S3 shares them).
    int i = 0;
    for (Map.Entry<String, byte[]> e : photos.live().entrySet()) {
      if (i++ % 5 != 0) {
        continue;
      }
      try (FSDataInputStream in = s3a.open(path(e.getKey()))) {
        byte[] read = in.readAllBytes();
        assertArrayEquals(e.getValue(), read, e.getKey());
      }
    }
  }

  @Test
  void s3aReadsRangesOfALargeEntryAndListsDirectories() throws Exception {
    byte[] large = photos.live().get(ModelArchive.LARGE_NAME);
    try (FSDataInputStream in = s3a.open(path(ModelArchive.LARGE_NAME))) {
      for (int at : new int[] {2_000_000, 17, large.length - 100, 1 << 20}) {
        byte[] piece = new byte[100];
        in.readFully(at, piece);
        assertArrayEquals(Arrays.copyOfRange(large, at, at + 100), piece);
      }
    }
    TreeSet<String> expected = new TreeSet<>();
    for (String name : photos.live().keySet()) {
      int slash = name.indexOf('/');
      expected.add(slash < 0 ? name : name.substring(0, slash) + "/");
    }
    TreeSet<String> listed = new TreeSet<>();
    for (FileStatus s : s3a.listStatus(new org.apache.hadoop.fs.Path("s3a://photos/"))) {
      listed.add(s.getPath().getName() + (s.isDirectory() ? "/" : ""));
    }
    assertEquals(expected, listed);
    assertEquals(large.length, s3a.getFileStatus(path(ModelArchive.LARGE_NAME)).getLen());
    assertTrue(s3a.getFileStatus(path("large")).isDirectory());
  }

  @Test
  void missingKeysAreNotFoundAndAWrongSecretIsRefused() throws Exception {
    assertThrows(FileNotFoundException.class, () -> s3a.getFileStatus(path("no/such-entry")));
    String deleted = photos.deleted().get(0);
    assertThrows(FileNotFoundException.class, () -> s3a.open(path(deleted)).read());
    try (FileSystem wrong =
        FileSystem.newInstance(URI.create("s3a://photos/"), s3aSettings("not-the-secret"))) {
      assertThrows(
          java.nio.file.AccessDeniedException.class,
          () -> wrong.getFileStatus(path(ModelArchive.LARGE_NAME)));
    }
    // Unsigned requests to a server with keys: refused in both dialects.
    assertEquals(
        403, get(signed, "/photos/" + encode(ModelArchive.LARGE_NAME), Map.of()).statusCode());
    HttpResponse<byte[]> s3 = get(signed, "/photos?list-type=2", Map.of());
    assertEquals(403, s3.statusCode());
    assertEquals("AccessDenied", text(xml(s3), "Code").get(0));
  }

  @Test
  void listObjectsV2PagesThroughEveryNameInByteOrder() throws Exception {
    for (String delimiter : new String[] {null, "/"}) {
      List<String> keys = new ArrayList<>();
      List<String> prefixes = new ArrayList<>();
      String token = null;
      int pages = 0;
      do {
        String q =
            "/photos?list-type=2&max-keys=37&encoding-type=url"
                + (delimiter == null ? "" : "&delimiter=%2F")
                + (token == null ? "" : "&continuation-token=" + encode(token));
        Document page = xml(get(anonymous, q, Map.of()));
        text(page, "Key").forEach(k -> keys.add(decode(k)));
        for (String p : text(page, "Prefix")) {
          if (!p.isEmpty()) {
            prefixes.add(decode(p));
          }
        }
        boolean truncated = Boolean.parseBoolean(text(page, "IsTruncated").get(0));
        token = truncated ? text(page, "NextContinuationToken").get(0) : null;
        assertTrue(Integer.parseInt(text(page, "KeyCount").get(0)) <= 37);
        pages++;
      } while (token != null);
      List<String> expectedKeys = new ArrayList<>();
      TreeSet<String> expectedPrefixes = new TreeSet<>(io.hpf.testing.ArchiveModel::compareUtf8);
      for (String name : photos.live().keySet()) {
        int slash = delimiter == null ? -1 : name.indexOf('/');
        if (slash < 0) {
          expectedKeys.add(name);
        } else {
          expectedPrefixes.add(name.substring(0, slash + 1));
        }
      }
      assertEquals(expectedKeys, keys, "delimiter " + delimiter);
      assertEquals(new ArrayList<>(expectedPrefixes), prefixes, "delimiter " + delimiter);
      assertTrue(pages > 1 || delimiter != null);
    }
    String first = photos.live().firstKey();
    List<String> after =
        text(
            xml(
                get(
                    anonymous,
                    "/photos?list-type=2&max-keys=2&start-after=" + encode(first),
                    Map.of())),
            "Key");
    assertEquals(new ArrayList<>(photos.live().keySet()).subList(1, 3), after);
  }

  @Test
  void bucketsAreTheArchivesWithBucketNames() throws Exception {
    HttpResponse<byte[]> r = get(anonymous, "/", Map.of("x-amz-date", "20260101T000000Z"));
    assertEquals(List.of("photos"), text(xml(r), "Name"));
    assertEquals(200, get(anonymous, "/photos?location", Map.of()).statusCode());
    assertS3Error(get(anonymous, "/nested?list-type=2", Map.of()), 404, "NoSuchBucket");
    assertS3Error(get(anonymous, "/none/a.txt?x-id=GetObject", Map.of()), 404, "NoSuchBucket");
    assertS3Error(get(anonymous, "/photos/no/such?x-id=GetObject", Map.of()), 404, "NoSuchKey");
    assertS3Error(get(anonymous, "/photos?acl", Map.of("x-amz-date", "x")), 501, "NotImplemented");
    assertS3Error(
        get(anonymous, "/photos?list-type=2&max-keys=-1", Map.of()), 400, "InvalidArgument");
    assertS3Error(
        get(anonymous, "/photos?list-type=2&continuation-token=zzzz", Map.of()),
        400,
        "InvalidArgument");
    HttpResponse<byte[]> put =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(TestServer.base(anonymous) + "/photos/new.txt"))
                .header("x-amz-content-sha256", "UNSIGNED-PAYLOAD")
                .PUT(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertS3Error(put, 405, "MethodNotAllowed");
  }

  /**
   * Sub-resources S3 has and hpf does not are NotImplemented on objects as on buckets, never the
   * object or the listing they would be without the parameter (boto3's get_object_acl got the
   * body); every S3 answer carries a request id, listings too; a request whose head is too large to
   * read is answered in S3's XML when it speaks S3.
   */
  @Test
  void unsupportedSubResourcesAreNotImplementedAndEveryAnswerHasARequestId() throws Exception {
    String key = "/photos/" + encode(photos.live().firstKey());
    for (String sub : List.of("acl", "tagging", "torrent", "retention", "legal-hold")) {
      assertS3Error(
          get(anonymous, key + "?" + sub, Map.of("x-amz-date", "x")), 501, "NotImplemented");
      assertS3Error(get(anonymous, key + "?" + sub, Map.of()), 501, "NotImplemented");
    }
    for (String sub : List.of("torrent", "versioning", "tagging", "acl", "publicAccessBlock")) {
      assertS3Error(get(anonymous, "/photos?" + sub, Map.of()), 501, "NotImplemented");
    }
    for (String listing : List.of("/", "/photos?list-type=2", "/photos?location")) {
      HttpResponse<byte[]> r = get(anonymous, listing, Map.of("x-amz-date", "20260101T000000Z"));
      assertEquals(200, r.statusCode(), listing);
      assertTrue(r.headers().firstValue("x-amz-request-id").isPresent(), listing);
    }
    try (RawHttp http = new RawHttp(anonymous.port())) {
      http.send(
          "GET /photos?list-type=2 HTTP/1.1\r\nHost: x\r\nx-amz-date: 20260101T000000Z\r\n"
              + "x-big: "
              + "a".repeat(64 * 1024)
              + "\r\n\r\n");
      RawHttp.Response r = http.read();
      assertEquals(431, r.status());
      assertTrue(r.bodyText().contains("<Code>RequestHeaderSectionTooLarge</Code>"), r.bodyText());
      assertTrue(r.header("x-amz-request-id") != null, r.head());
    }
  }

  @Test
  void objectsAnswerConditionsRangesAndTheirChecksum() throws Exception {
    String name = ModelArchive.LARGE_NAME;
    byte[] content = photos.live().get(name);
    String uri = "/photos/" + encode(name);
    Map<String, String> s3 = Map.of("x-amz-checksum-mode", "ENABLED");
    HttpResponse<byte[]> whole = get(anonymous, uri, s3);
    assertArrayEquals(content, whole.body());
    CRC32C crc = new CRC32C();
    crc.update(content);
    byte[] crcBytes = java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
    assertEquals(
        Base64.getEncoder().encodeToString(crcBytes),
        whole.headers().firstValue("x-amz-checksum-crc32c").orElseThrow());
    String etag = whole.headers().firstValue("etag").orElseThrow();
    String modified = whole.headers().firstValue("last-modified").orElseThrow();
    assertEquals(
        304,
        get(anonymous, uri, Map.of("x-amz-x", "1", "If-Modified-Since", modified)).statusCode());
    assertEquals(
        200,
        get(
                anonymous,
                uri,
                Map.of("x-amz-x", "1", "If-Modified-Since", "Thu, 01 Jan 2015 00:00:00 GMT"))
            .statusCode());
    assertS3Error(
        get(anonymous, uri, Map.of("x-amz-x", "1", "If-Match", "\"00000000\"")),
        412,
        "PreconditionFailed");
    assertEquals(200, get(anonymous, uri, Map.of("x-amz-x", "1", "If-Match", etag)).statusCode());
    assertS3Error(
        get(
            anonymous,
            uri,
            Map.of("x-amz-x", "1", "If-Unmodified-Since", "Thu, 01 Jan 2015 00:00:00 GMT")),
        412,
        "PreconditionFailed");
    HttpResponse<byte[]> range =
        get(anonymous, uri, Map.of("x-amz-checksum-mode", "ENABLED", "Range", "bytes=5-14"));
    assertEquals(206, range.statusCode());
    assertArrayEquals(Arrays.copyOfRange(content, 5, 15), range.body());
    assertFalse(range.headers().firstValue("x-amz-checksum-crc32c").isPresent());
    assertS3Error(
        get(anonymous, uri, Map.of("x-amz-x", "1", "Range", "bytes=" + content.length + "-")),
        416,
        "InvalidRange");
  }

  @Test
  void aVirtualHostNamesTheBucket() throws Exception {
    String name = photos.live().firstKey();
    try (RawHttp http = new RawHttp(anonymous.port())) {
      http.send(
          "GET /"
              + encode(name)
              + " HTTP/1.1\r\nHost: photos.s3.test:"
              + anonymous.port()
              + "\r\n\r\n");
      RawHttp.Response object = http.read();
      assertEquals(200, object.status());
      assertArrayEquals(photos.live().get(name), object.body());
      http.send("GET /?list-type=2&max-keys=3 HTTP/1.1\r\nHost: photos.s3.test\r\n\r\n");
      RawHttp.Response list = http.read();
      assertEquals(200, list.status());
      assertTrue(list.bodyText().contains("<Name>photos</Name>"), list.bodyText());
      assertEquals(3, list.bodyText().split("<Key>", -1).length - 1, list.bodyText());
      http.send("GET /x HTTP/1.1\r\nHost: nobucket.s3.test\r\n\r\n");
      assertEquals(404, http.read().status());
    }
  }

  static void assertS3Error(HttpResponse<byte[]> r, int status, String code) throws Exception {
    assertEquals(status, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
    assertEquals(List.of(code), text(xml(r), "Code"));
    assertTrue(r.headers().firstValue("x-amz-request-id").isPresent());
  }

  static org.apache.hadoop.fs.Path path(String name) {
    return new org.apache.hadoop.fs.Path("s3a://photos/" + name);
  }

  static HttpResponse<byte[]> get(
      HpfServer server, String pathAndQuery, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(TestServer.base(server) + pathAndQuery));
    headers.forEach(b::header);
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  static Document xml(HttpResponse<byte[]> r) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(r.body()));
  }

  static List<String> text(Document d, String element) {
    NodeList nodes = d.getElementsByTagName(element);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      out.add(nodes.item(i).getTextContent());
    }
    return out;
  }

  /** A name as S3 clients put it in a path or a query: every byte but unreserved ones escaped. */
  static String encode(String name) {
    return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20").replace("%2F", "/");
  }

  static String decode(String s) {
    return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
