package io.hpf.server.http;

import io.hpf.archive.model.EntryInfo;
import io.hpf.server.ServerOptions;
import io.hpf.server.archives.ArchiveDirectory;
import io.hpf.server.archives.PrefixWalk;
import io.hpf.server.ring.RingMember;
import io.hpf.server.s3.Canonical;
import io.hpf.server.s3.ChunkSignatures;
import io.hpf.server.s3.ListObjects;
import io.hpf.server.s3.S3Error;
import io.hpf.server.s3.S3Exception;
import io.hpf.server.s3.S3Xml;
import io.hpf.server.s3.SignatureV4;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The S3 API, path style (and virtual-host style under --s3-domain), over the same archives:
 * buckets are archives (those whose id is a bucket name: no '/'), keys are entry names.
 * ListBuckets, HeadBucket, GetBucketLocation, ListObjects (versions 1 and 2), GetObject and
 * HeadObject; every other operation is refused as a write (MethodNotAllowed) or as not implemented.
 * With {@code --s3-keys} every request must be signed (AWS Signature V4) by one of the keys;
 * without, reads are anonymous and signatures are not checked. Objects are answered by the HTTP
 * API's {@link EntryResponder} (same ETag, ranges, conditions, every byte checked), errors in S3's
 * XML; every S3 response carries an {@code x-amz-request-id}.
 */
final class S3Responder {
  /** Query parameters only S3 clients send: a request with one speaks S3. */
  private static final Set<String> S3_PARAMETERS =
      Set.of(
          "list-type",
          "location",
          "x-id",
          "encoding-type",
          "continuation-token",
          "start-after",
          "max-keys",
          "marker",
          "fetch-owner",
          "X-Amz-Algorithm",
          "X-Amz-Signature",
          "X-Amz-Credential",
          "AWSAccessKeyId",
          "Signature");

  /**
   * Sub-resources of buckets and objects that S3 has and this server does not: a request naming one
   * is answered NotImplemented, never with the listing or the object it would be without it.
   */
  private static final Set<String> UNSUPPORTED =
      Set.of(
          "accelerate",
          "acl",
          "analytics",
          "attributes",
          "cors",
          "delete",
          "encryption",
          "intelligent-tiering",
          "inventory",
          "legal-hold",
          "lifecycle",
          "logging",
          "metrics",
          "notification",
          "object-lock",
          "ownershipControls",
          "policy",
          "policyStatus",
          "publicAccessBlock",
          "replication",
          "requestPayment",
          "restore",
          "retention",
          "select",
          "tagging",
          "torrent",
          "uploadId",
          "uploads",
          "versioning",
          "versions",
          "website");

  private final RequestRouter router;
  private final ArchiveDirectory directory;
  private final EntryResponder entries;
  private final WriteResponder writes; // null unless the server is writable
  private final ServerOptions options;
  private final S3Forwarder forwarder; // null unless in a ring, with keys
  private final SignatureV4 signatures;
  private final long startedMillis = System.currentTimeMillis();

  /** ".DOMAIN" of virtual-host-style requests, or null. */
  private final String hostSuffix;

  S3Responder(
      RequestRouter router,
      ArchiveDirectory directory,
      EntryResponder entries,
      WriteResponder writes,
      ServerOptions options) {
    this.router = router;
    this.directory = directory;
    this.entries = entries;
    this.writes = writes;
    this.signatures =
        options.s3Keys == null ? null : new SignatureV4(options.s3Keys, options.wallClock);
    this.hostSuffix = options.s3Domain == null ? null : "." + options.s3Domain;
    this.options = options;
    this.forwarder =
        options.ring == null || signatures == null ? null : new S3Forwarder(signatures);
  }

  /**
   * Whether a request speaks S3: it is signed the AWS way, carries an {@code x-amz-} header, or a
   * query parameter only S3 has. (An unsigned plain GET of an object is the same in both.)
   */
  boolean isS3(HttpRequest request) {
    HttpHeaders h = request.headers();
    if (virtualBucket(request) != null) {
      return true;
    }
    String uri = request.uri();
    int q = uri.indexOf('?');
    if (q >= 0) {
      for (int at = q + 1; at < uri.length(); ) {
        int amp = uri.indexOf('&', at);
        int end = amp < 0 ? uri.length() : amp;
        int eq = uri.indexOf('=', at);
        String name = uri.substring(at, eq < 0 || eq > end ? end : eq);
        if (S3_PARAMETERS.contains(name) || UNSUPPORTED.contains(name)) {
          return true;
        }
        at = end + 1;
      }
    }
    String authorization = h.get(HttpHeaderNames.AUTHORIZATION);
    if (authorization != null
        && (authorization.startsWith(SignatureV4.ALGORITHM) || authorization.startsWith("AWS "))) {
      return true;
    }
    for (var it = h.iteratorCharSequence(); it.hasNext(); ) {
      CharSequence name = it.next().getKey();
      if (name.length() > 6 && AMZ.contentEqualsIgnoreCase(name.subSequence(0, 6))) {
        return true;
      }
    }
    return false;
  }

  private static final io.netty.util.AsciiString AMZ = io.netty.util.AsciiString.cached("x-amz-");

  void respond(Exchange ex, boolean onWorker) throws IOException {
    String uri = ex.request.uri();
    int q = uri.indexOf('?');
    String rawPath = q < 0 ? uri : uri.substring(0, q);
    String rawQuery = q < 0 ? "" : uri.substring(q + 1);
    ex.speakS3(rawPath, null, null, S3Error.NO_SUCH_BUCKET);
    ex.route("bad");
    try {
      Signed signed = new Signed(ex, rawPath, rawQuery);
      String accessKey = signatures == null ? null : signatures.verify(signed);
      HttpMethod method = ex.request.method();
      // ListParts (GET ?uploadId) and ListMultipartUploads (GET ?uploads) belong to uploads,
      // which the writes take.
      boolean read =
          (method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD))
              && !(writes != null && namesUploads(rawQuery));
      if (!read && writes == null) {
        throw new S3Exception(
            S3Error.METHOD_NOT_ALLOWED, "the server is read-only: " + method + " is refused");
      }
      if (!read && signatures == null) {
        throw new S3Exception(
            S3Error.ACCESS_DENIED, "writes over S3 need a signature by one of --s3-keys");
      }
      RequestPath path;
      String bucket = virtualBucket(ex.request);
      try {
        // The query is S3's, read below where needed; a virtual host's bucket leads the path.
        path = RequestPath.parse(bucket == null ? rawPath : "/" + bucket + rawPath);
      } catch (RequestPath.BadPathException e) {
        throw new S3Exception(S3Error.INVALID_ARGUMENT, e.getMessage());
      }
      if (!read) {
        RingMember owner = writerElsewhere(ex, path);
        if (owner != null) {
          ex.route("forward");
          router.offload(
              ex,
              () -> {
                try {
                  forwarder.forward(ex, owner, rawPath, rawQuery, accessKey, signed.chunks);
                } catch (S3Exception e) {
                  ex.s3Error(e.error(), e.getMessage(), null);
                }
              });
          return;
        }
        router.offload(ex, () -> write(ex, path, rawQuery, signed.chunks));
        return;
      }
      route(ex, path, rawQuery, onWorker);
    } catch (S3Exception e) {
      ex.s3Error(e.error(), e.getMessage(), null);
    }
  }

  /** Whether a query is of uploads (ListParts' uploadId, ListMultipartUploads' uploads). */
  private static boolean namesUploads(String rawQuery) {
    if (rawQuery.isEmpty()) {
      return false; // a plain GET, the read path's most common request: nothing to parse
    }
    Map<String, String> parameters = Canonical.parameters(rawQuery);
    return parameters.containsKey("uploadId") || parameters.containsKey("uploads");
  }

  /**
   * In a ring, the server that writes the bucket a write names, when it is another (only an
   * archive's owner writes it; a client falling back from a dead owner is served here); else null.
   */
  private RingMember writerElsewhere(Exchange ex, RequestPath path) {
    if (options.ring == null || ex.request.headers().contains(RequestRouter.FALLBACK_HEADER)) {
      return null;
    }
    String p = path.path();
    int slash = p.indexOf('/');
    RingMember owner = options.ring.owner(slash < 0 ? p : p.substring(0, slash));
    return owner.id().equals(options.selfId) ? null : owner;
  }

  /** A write, on a worker thread: what it names found, then taken by the write responder. */
  private void write(Exchange ex, RequestPath path, String rawQuery, ChunkSignatures chunks) {
    String p = path.path();
    int slash = p.indexOf('/');
    String bucket = slash < 0 ? p : p.substring(0, slash);
    String key = slash < 0 ? "" : p.substring(slash + 1);
    ex.speakS3("/" + p, bucket, key.isEmpty() ? null : key, S3Error.NO_SUCH_BUCKET);
    try {
      if (bucket.isEmpty()) {
        throw new S3Exception(S3Error.METHOD_NOT_ALLOWED, "a write names a bucket");
      }
      Map<String, String> query = Canonical.parameters(rawQuery);
      for (String name : query.keySet()) {
        if (UNSUPPORTED.contains(name) && !name.equals("delete") && !name.startsWith("upload")) {
          throw new S3Exception(S3Error.NOT_IMPLEMENTED, "'" + name + "' is not served here");
        }
      }
      writes.s3(ex, bucket, key, query, chunks);
    } catch (S3Exception e) {
      ex.s3Error(e.error(), e.getMessage(), null);
    } catch (IOException | RuntimeException e) {
      router.failed(ex, bucket, key.isEmpty() ? null : key, e);
    }
  }

  private void route(Exchange ex, RequestPath path, String rawQuery, boolean onWorker)
      throws IOException, S3Exception {
    String p = path.path();
    int slash = p.indexOf('/');
    String bucket = slash < 0 ? p : p.substring(0, slash);
    String key = slash < 0 ? "" : p.substring(slash + 1);
    if (bucket.isEmpty()) {
      ex.route("buckets");
      sendXml(ex, S3Xml.buckets(buckets(), startedMillis));
      return;
    }
    ArchiveDirectory.Target target = directory.resolve(bucket);
    if (target == null || !target.archive().equals(bucket)) {
      throw new S3Exception(S3Error.NO_SUCH_BUCKET, "no archive '" + bucket + "'");
    }
    Map<String, String> query = Canonical.parameters(rawQuery);
    if (!key.isEmpty()) {
      ex.speakS3("/" + p, bucket, key, S3Error.NO_SUCH_KEY);
      refuseUnsupported(query);
      router.forArchive(ex, bucket, key, onWorker, (e, a, w) -> object(e, a, key, w));
      return;
    }
    ex.speakS3("/" + p, bucket, null, S3Error.NO_SUCH_BUCKET);
    refuseUnsupported(query);
    if (query.containsKey("location")) {
      ex.route("bucket");
      sendXml(ex, S3Xml.location());
    } else if (ex.isHead()) {
      ex.route("bucket");
      ex.send(HttpResponseStatus.OK, null, Unpooled.EMPTY_BUFFER, ex.head(HttpResponseStatus.OK));
    } else {
      ListObjects list = ListObjects.of(query);
      router.forArchive(ex, bucket, list.prefix(), onWorker, (e, a, w) -> list(e, a, list));
    }
  }

  private static void refuseUnsupported(Map<String, String> query) throws S3Exception {
    for (String name : query.keySet()) {
      if (UNSUPPORTED.contains(name)) {
        throw new S3Exception(S3Error.NOT_IMPLEMENTED, "'" + name + "' is not served here");
      }
    }
  }

  private void object(Exchange ex, String bucket, String key, boolean onWorker) {
    try {
      entries.respond(ex, bucket, key, onWorker);
    } catch (IOException | RuntimeException e) {
      router.failed(ex, bucket, key, e);
    }
  }

  private void list(Exchange ex, String bucket, ListObjects list) {
    ex.route("list");
    List<EntryInfo> contents = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    try {
      PrefixWalk.Page page =
          list.maxKeys() == 0
              ? new PrefixWalk.Page(false, null, false)
              : PrefixWalk.walk(
                  ex.lease().reader(),
                  list.prefix(),
                  list.from(),
                  list.delimiter(),
                  list.maxKeys(),
                  new PrefixWalk.Visitor() {
                    @Override
                    public void entry(EntryInfo entry) {
                      contents.add(entry);
                    }

                    @Override
                    public void commonPrefix(String prefix) {
                      prefixes.add(prefix);
                    }
                  });
      sendXml(ex, list.result(bucket, contents, prefixes, page));
    } catch (IOException | RuntimeException e) {
      router.failed(ex, bucket, null, e);
    }
  }

  /** The archives whose ids are bucket names (no '/'), in order. */
  private List<String> buckets() {
    List<String> out = new ArrayList<>();
    for (String id : directory.ids()) {
      if (id.indexOf('/') < 0) {
        out.add(id);
      }
    }
    return out;
  }

  /**
   * The bucket a virtual-host-style request names in its Host ({@code BUCKET.DOMAIN[:port]}), or
   * null: path style, or no {@code --s3-domain}.
   */
  private String virtualBucket(HttpRequest request) {
    if (hostSuffix == null) {
      return null;
    }
    String host = request.headers().get(HttpHeaderNames.HOST);
    if (host == null) {
      return null;
    }
    int colon = host.lastIndexOf(':');
    String name =
        (colon > host.lastIndexOf(']') ? host.substring(0, colon) : host)
            .toLowerCase(java.util.Locale.ROOT);
    if (!name.endsWith(hostSuffix) || name.length() == hostSuffix.length()) {
      return null;
    }
    String bucket = name.substring(0, name.length() - hostSuffix.length());
    return bucket.indexOf('/') < 0 ? bucket : null;
  }

  private static void sendXml(Exchange ex, String xml) {
    ex.sendText(HttpResponseStatus.OK, "application/xml", xml);
  }

  /** The request as the signature check reads it; it keeps how to check signed chunks. */
  private static final class Signed implements SignatureV4.Request {
    private final Exchange ex;
    private final String rawPath;
    private final String rawQuery;
    ChunkSignatures chunks;

    Signed(Exchange ex, String rawPath, String rawQuery) {
      this.ex = ex;
      this.rawPath = rawPath;
      this.rawQuery = rawQuery;
    }

    @Override
    public String method() {
      return ex.request.method().name();
    }

    @Override
    public String rawPath() {
      return rawPath;
    }

    @Override
    public String rawQuery() {
      return rawQuery;
    }

    @Override
    public List<String> headers(String lowerCaseName) {
      return ex.request.headers().getAll(lowerCaseName);
    }

    @Override
    public byte[] body() {
      return UploadBody.bytes(ex);
    }

    @Override
    public void signedBy(ChunkSignatures signatures) {
      chunks = signatures;
    }
  }
}
