package io.hpf.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpf.server.ring.Ring;
import io.hpf.server.ring.RingMember;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A small client of {@code hpf serve}: get, stat, list and mget. With a ring it places each archive
 * itself, as TýrFS clients do (no metadata server asked): it sends a request to the archive's owner
 * and, when the owner cannot be reached, to the next servers of the ring in turn, telling them it
 * falls back (they answer instead of redirecting). A redirect (307) is followed once. Thread-safe.
 */
public final class HpfHttpClient {
  private static final String FALLBACK_HEADER = "X-Hpf-Fallback";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Ring ring;
  private final String single;
  private final String token;
  private final HttpClient http;

  private HpfHttpClient(Ring ring, String single, String token) {
    this.ring = ring;
    this.single = single;
    this.token = token;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** A client of one server, {@code http://host:port}. */
  public static HpfHttpClient of(String baseUri) {
    return new HpfHttpClient(null, baseUri.replaceAll("/+$", ""), null);
  }

  /** A client of a ring of servers. */
  public static HpfHttpClient of(Ring ring) {
    return new HpfHttpClient(ring, null, null);
  }

  /** This client, sending {@code Authorization: Bearer <token>}. */
  public HpfHttpClient withToken(String bearer) {
    return new HpfHttpClient(ring, single, bearer);
  }

  /** An entry's content, or null if the archive has no such entry. */
  public byte[] get(String archive, String name) throws IOException {
    HttpResponse<byte[]> r = send(archive, "GET", entryPath(archive, name), null, null);
    if (r.statusCode() == 404) {
      return null;
    }
    expect(r, 200);
    return r.body();
  }

  /** Bytes {@code [start, start + length)} of an entry (a Range request), or null if absent. */
  public byte[] getRange(String archive, String name, long start, long length) throws IOException {
    HttpResponse<byte[]> r =
        send(
            archive,
            "GET",
            entryPath(archive, name),
            null,
            "bytes=" + start + "-" + (start + length - 1));
    if (r.statusCode() == 404) {
      return null;
    }
    expect(r, 206);
    return r.body();
  }

  /** An entry's metadata (a HEAD request), or null if absent. */
  public EntryStat stat(String archive, String name) throws IOException {
    HttpResponse<byte[]> r = send(archive, "HEAD", entryPath(archive, name), null, null);
    if (r.statusCode() == 404) {
      return null;
    }
    expect(r, 200);
    return new EntryStat(
        Long.parseLong(header(r, "content-length")), header(r, "etag"), header(r, "last-modified"));
  }

  /**
   * A page of the entries under {@code prefix}, after the cursor {@code after} (null for the first
   * page); with {@code rollUp}, names below a further '/' come back as common prefixes.
   */
  public ListPage list(String archive, String prefix, boolean rollUp, String after, int limit)
      throws IOException {
    StringBuilder q = new StringBuilder("/").append(encodePath(archive)).append("/?limit=" + limit);
    q.append("&prefix=").append(encodeQuery(prefix));
    if (rollUp) {
      q.append("&delimiter=/");
    }
    if (after != null) {
      q.append("&after=").append(encodeQuery(after));
    }
    HttpResponse<byte[]> r = send(archive, "GET", q.toString(), null, null);
    expect(r, 200);
    JsonNode page = JSON.readTree(r.body());
    List<ListPage.Listed> entries = new ArrayList<>();
    for (JsonNode e : page.get("entries")) {
      entries.add(
          new ListPage.Listed(
              e.get("name").asText(), e.get("length").asLong(), e.get("mtime").asLong()));
    }
    List<String> prefixes = new ArrayList<>();
    for (JsonNode p : page.get("prefixes")) {
      prefixes.add(p.asText());
    }
    JsonNode next = page.get("next");
    return new ListPage(entries, prefixes, next == null ? null : next.asText());
  }

  /**
   * Many entries in one request: the names found, with their content, in request order; missing
   * names are left out.
   *
   * @throws IOException if the server marks a name damaged (500) or too large for _mget (413)
   */
  public Map<String, byte[]> mget(String archive, List<String> names) throws IOException {
    byte[] body = (String.join("\n", names) + "\n").getBytes(StandardCharsets.UTF_8);
    HttpResponse<byte[]> r =
        send(archive, "POST", "/" + encodePath(archive) + "/_mget", body, null);
    expect(r, 200);
    Map<String, byte[]> found = new LinkedHashMap<>();
    byte[] b = r.body();
    int at = 0;
    while (at < b.length) {
      int eol = indexOf(b, (byte) '\n', at);
      if (eol < 0) {
        throw new IOException("_mget: a frame without its line end at byte " + at);
      }
      String line = new String(b, at, eol - at, StandardCharsets.UTF_8);
      String[] parts = line.split(" ", 3);
      if (parts.length != 3) {
        throw new IOException("_mget: a bad frame line at byte " + at + ": '" + line + "'");
      }
      int status = Integer.parseInt(parts[0]);
      int length = Integer.parseInt(parts[1]);
      at = eol + 1;
      if (length < 0 || length > b.length - at - 1) {
        throw new IOException("_mget: frame of '" + parts[2] + "' runs past the response");
      }
      if (status == 200) {
        byte[] content = new byte[length];
        System.arraycopy(b, at, content, 0, length);
        found.put(parts[2], content);
      } else if (status != 404) {
        throw new IOException("_mget: '" + parts[2] + "' answered " + status);
      }
      at += length + 1;
    }
    return found;
  }

  /** Sends to the archive's server (or the single one), falling back along the ring. */
  private HttpResponse<byte[]> send(
      String archive, String method, String pathAndQuery, byte[] body, String range)
      throws IOException {
    List<String> bases = new ArrayList<>();
    if (ring == null) {
      bases.add(single);
    } else {
      for (RingMember m : ring.preference(archive)) {
        bases.add(m.baseUri());
      }
    }
    IOException last = null;
    for (int i = 0; i < bases.size(); i++) {
      HttpRequest request =
          request(URI.create(bases.get(i) + pathAndQuery), method, body, range, i > 0);
      try {
        HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() == 307) {
          Optional<String> location = r.headers().firstValue("location");
          if (location.isPresent()) {
            r =
                http.send(
                    request(URI.create(location.get()), method, body, range, false),
                    HttpResponse.BodyHandlers.ofByteArray());
          }
        }
        return r;
      } catch (ConnectException | HttpConnectTimeoutException e) {
        last = new IOException("server " + bases.get(i) + " cannot be reached", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
    throw last;
  }

  private HttpRequest request(URI uri, String method, byte[] body, String range, boolean fallback) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (range != null) {
      b.header("Range", range);
    }
    if (fallback) {
      b.header(FALLBACK_HEADER, "1");
    }
    return b.build();
  }

  private static void expect(HttpResponse<byte[]> r, int status) throws IOException {
    if (r.statusCode() != status) {
      String body = new String(r.body(), StandardCharsets.UTF_8).strip();
      throw new IOException(
          r.request().method() + " " + r.uri() + ": " + r.statusCode() + " " + body);
    }
  }

  private static String header(HttpResponse<?> r, String name) throws IOException {
    return r.headers()
        .firstValue(name)
        .orElseThrow(() -> new IOException(r.uri() + ": no " + name + " header"));
  }

  private static String entryPath(String archive, String name) {
    return "/" + encodePath(archive) + "/" + encodePath(name);
  }

  /** Percent-encodes a path: every byte but unreserved characters and '/'. */
  public static String encodePath(String path) {
    StringBuilder out = new StringBuilder(path.length() + 16);
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~'
          || c == '/') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return out.toString();
  }

  private static String encodeQuery(String s) {
    return encodePath(s).replace("/", "%2F");
  }

  private static int indexOf(byte[] b, byte x, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == x) {
        return i;
      }
    }
    return -1;
  }
}
