package io.hpf.server.http;

import io.hpf.server.ring.RingMember;
import io.hpf.server.s3.ChunkSignatures;
import io.hpf.server.s3.S3Exception;
import io.hpf.server.s3.SignatureV4;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sends an S3 write on to the archive's owner in a ring, so that one server writes each archive:
 * the request, its signature checked here, is signed anew for the owner with the secret of the
 * client's own access key (every server of a ring reads the same keys), its body decoded first when
 * it came {@code aws-chunked} (chunk signatures and trailing checksums checked here; the checksums
 * go on as headers, which the owner checks again), and the owner's answer relayed.
 */
final class S3Forwarder {
  /** Request headers that go on as they came (besides the checksums and the signature's own). */
  private static final List<String> FORWARDED =
      List.of("content-md5", "content-type", "if-match", "if-none-match", "x-amz-copy-source");

  private static final List<String> RELAYED =
      List.of("content-type", "etag", "location", "last-modified");

  private final SignatureV4 signatures;
  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(5))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  S3Forwarder(SignatureV4 signatures) {
    this.signatures = signatures;
  }

  void forward(
      Exchange ex,
      RingMember owner,
      String rawPath,
      String rawQuery,
      String accessKey,
      ChunkSignatures chunks)
      throws IOException, S3Exception {
    HttpHeaders in = ex.request.headers();
    Map<String, String> headers = new TreeMap<>();
    byte[] body;
    String payload = in.get("x-amz-content-sha256", "");
    if (payload.startsWith("STREAMING-")
        || in.containsValue("content-encoding", "aws-chunked", true)) {
      UploadBody decoded = UploadBody.read(ex, chunks);
      body = decoded.content();
      headers.putAll(decoded.checksums());
    } else {
      body = UploadBody.bytes(ex);
      for (Map.Entry<String, String> h : in) {
        String name = h.getKey().toLowerCase(Locale.ROOT);
        if (name.startsWith("x-amz-checksum-")) {
          headers.put(name, h.getValue());
        }
      }
    }
    for (String name : FORWARDED) {
      String v = in.get(name);
      if (v != null) {
        headers.put(name, v);
      }
    }
    String amzDate = SignatureV4.amzDate(System.currentTimeMillis());
    headers.put("host", owner.address());
    headers.put("x-amz-date", amzDate);
    headers.put("x-amz-content-sha256", SignatureV4.sha256Hex(body));
    String uri = rawQuery.isEmpty() ? rawPath : rawPath + "?" + rawQuery;
    String authorization =
        signatures.authorization(
            new Outgoing(ex.request.method().name(), rawPath, rawQuery, headers),
            accessKey,
            amzDate,
            String.join(";", headers.keySet()));
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(owner.baseUri() + uri))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", authorization)
            .method(ex.request.method().name(), HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(
        (name, value) -> {
          if (!name.equals("host")) {
            b.header(name, value);
          }
        });
    java.net.http.HttpResponse<byte[]> answer =
        Proxy.ask(
            client, b.build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray(), ex, owner);
    if (answer == null) {
      return;
    }
    HttpResponse head = ex.head(HttpResponseStatus.valueOf(answer.statusCode()));
    answer
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              String lower = name.toLowerCase(Locale.ROOT);
              if (RELAYED.contains(lower) || lower.startsWith("x-amz-checksum-")) {
                head.headers().set(name, values.get(0));
              }
            });
    ex.send(
        HttpResponseStatus.valueOf(answer.statusCode()),
        null,
        Unpooled.wrappedBuffer(answer.body()),
        head);
  }

  /** The request as it goes to the owner, for its signature. */
  private record Outgoing(String method, String rawPath, String rawQuery, Map<String, String> all)
      implements SignatureV4.Request {
    @Override
    public List<String> headers(String lowerCaseName) {
      String v = all.get(lowerCaseName);
      return v == null ? List.of() : new ArrayList<>(List.of(v));
    }

    @Override
    public byte[] body() {
      return new byte[0]; // not asked: the payload's hash is a header
    }
  }
}
