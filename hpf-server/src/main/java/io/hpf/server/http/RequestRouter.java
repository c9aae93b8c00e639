package io.hpf.server.http;

import io.hpf.archive.model.ArchiveReplacedException;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.hadoop.ProgramMessages;
import io.hpf.server.ServerLog;
import io.hpf.server.ServerOptions;
import io.hpf.server.archives.ArchiveDirectory;
import io.hpf.server.archives.ArchiveWriters;
import io.hpf.server.archives.ReaderPool;
import io.hpf.server.hot.SlidingTopK;
import io.hpf.server.metrics.ServerMetrics;
import io.hpf.server.ring.RingMember;
import io.hpf.server.s3.MultipartUploads;
import io.hpf.server.s3.S3Error;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * Decides what a request is and who answers it: checks (decoding, method, token, path), the
 * server's own routes ({@code /}, {@code /_metrics}, {@code /_hot}, {@code /_health}), then the
 * archive the path names and, in a ring, whether this server answers for it, redirects or proxies.
 * Work that may block (opening an archive, any read on a Hadoop file system, streams, {@code
 * _mget}) goes to the worker pool; a warm read on local disk is answered on the event loop.
 */
public final class RequestRouter {
  /** Set by a client that could not reach an archive's owner: answer, do not redirect. */
  public static final String FALLBACK_HEADER = "X-Hpf-Fallback";

  private final ServerOptions options;
  private final ArchiveDirectory directory;
  private final ReaderPool pool;
  private final ServerMetrics metrics;

  /** A failed read of the same entry, said once a minute (a client may retry it endlessly). */
  private final RepeatedWarnings repeatedWarnings;

  private final SlidingTopK hotArchives;
  private final SlidingTopK hotPrefixes;
  private final ExecutorService workers;
  private final boolean local;
  private final byte[] token;
  private final EntryResponder entries = new EntryResponder(this);
  private final ListingResponder listings = new ListingResponder();
  private final MgetResponder mget;
  private final AdminResponder admin;
  private final Proxy proxy;
  private final S3Responder s3;
  private final WriteResponder writes; // null unless the server is writable

  /** Work for a worker thread; it may throw, and the exchange is answered with the error. */
  interface Work {
    void run() throws IOException;
  }

  public RequestRouter(
      ServerOptions options,
      ArchiveDirectory directory,
      ReaderPool pool,
      ArchiveWriters writers,
      MultipartUploads uploads,
      ServerMetrics metrics,
      SlidingTopK hotArchives,
      SlidingTopK hotPrefixes,
      ExecutorService workers) {
    this.repeatedWarnings = new RepeatedWarnings(60_000_000_000L, options.nanoClock);
    this.options = options;
    this.directory = directory;
    this.pool = pool;
    this.metrics = metrics;
    this.hotArchives = hotArchives;
    this.hotPrefixes = hotPrefixes;
    this.workers = workers;
    this.local = directory.root().local();
    this.token = options.token == null ? null : options.token.getBytes(StandardCharsets.UTF_8);
    this.mget = new MgetResponder(this, options.maxMgetNames);
    this.admin = new AdminResponder(directory, metrics, hotArchives, hotPrefixes, options);
    this.proxy = options.proxy ? new Proxy() : null;
    this.writes =
        writers == null ? null : new WriteResponder(this, directory, pool, writers, uploads);
    this.s3 = new S3Responder(this, directory, entries, writes, options);
  }

  long writeTimeoutMillis() {
    return options.idleConnectionMillis;
  }

  void handle(Exchange ex) {
    try {
      route(ex);
    } catch (IOException | RuntimeException e) {
      failed(ex, null, null, e);
    }
  }

  /** The URI Netty gives a request whose request line could not be read. */
  private static final String BAD_URI = "/bad-request";

  private void route(Exchange ex) throws IOException {
    if (ex.request.decoderResult().isFailure()) {
      Throwable cause = ex.request.decoderResult().cause();
      HttpResponseStatus status =
          cause instanceof TooLongHttpLineException
              ? HttpResponseStatus.REQUEST_URI_TOO_LONG
              : cause instanceof TooLongHttpHeaderException
                  ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                  : cause instanceof TooLongFrameException
                      ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                      : HttpResponseStatus.BAD_REQUEST;
      ex.route("bad");
      ex.closeAfterResponse();
      if (s3.isS3(ex.request) || (options.s3Keys != null && ex.request.uri().equals(BAD_URI))) {
        // An S3 client gets S3's XML: known from what was read, or, where not even the request
        // line was (too long), from a server that takes signed S3 requests.
        ex.speakS3(ex.request.uri(), null, null, S3Error.NO_SUCH_BUCKET);
      }
      ex.error(
          status,
          "the request could not be read: " + status.reasonPhrase().toLowerCase(Locale.ROOT));
      return;
    }
    if (s3.isS3(ex.request)) {
      if (local) {
        s3.respond(ex, false);
      } else {
        offload(ex, () -> s3.respond(ex, true));
      }
      return;
    }
    HttpMethod method = ex.request.method();
    boolean post = method.equals(HttpMethod.POST);
    boolean write =
        writes != null && (method.equals(HttpMethod.PUT) || method.equals(HttpMethod.DELETE));
    if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD) && !post && !write) {
      refuse(
          ex,
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          HttpHeaderNames.ALLOW,
          "GET, HEAD, POST",
          "the server is read-only: GET, HEAD, and POST for _mget");
      return;
    }
    if (token != null && !authorized(ex)) {
      refuse(
          ex,
          HttpResponseStatus.UNAUTHORIZED,
          HttpHeaderNames.WWW_AUTHENTICATE,
          "Bearer",
          "a valid bearer token is required");
      return;
    }
    if (token == null && options.s3Keys != null) {
      ex.route("bad");
      ex.error(
          HttpResponseStatus.FORBIDDEN,
          "this server answers only requests signed with one of its S3 keys (AWS Signature V4)");
      return;
    }
    RequestPath path;
    try {
      path = RequestPath.parse(ex.request.uri());
    } catch (RequestPath.BadPathException e) {
      ex.route("bad");
      ex.error(HttpResponseStatus.BAD_REQUEST, e.getMessage());
      return;
    }
    String p = path.path();
    if (write) {
      offload(ex, () -> write(ex, p));
      return;
    }
    if (p.isEmpty() || p.charAt(0) == '_') {
      admin.respond(ex, p);
      return;
    }
    if (!local) {
      offload(ex, () -> archiveRequest(ex, path, true));
      return;
    }
    archiveRequest(ex, path, false);
  }

  /** A PUT or DELETE of the HTTP API: of an entry of an archive, never of a prefix. */
  private void write(Exchange ex, String path) throws IOException {
    ArchiveDirectory.Target target = directory.resolve(path);
    if (target == null) {
      ex.route("bad");
      ex.error(HttpResponseStatus.NOT_FOUND, "no archive at '/" + firstComponent(path) + "'");
      return;
    }
    String name = target.rest();
    // In a ring only an archive's owner writes it (one writer, no contention for its lock); the
    // others proxy or redirect, as for reads. A client falling back from a dead owner is served.
    if (options.ring != null && !ex.request.headers().contains(FALLBACK_HEADER)) {
      RingMember owner = options.ring.owner(target.archive());
      if (!owner.id().equals(options.selfId)) {
        if (proxy != null) {
          ex.route("proxy");
          proxy.forward(ex, owner, this);
        } else {
          redirect(ex, target.archive(), owner);
        }
        return;
      }
    }
    if (name.isEmpty() || name.endsWith("/")) {
      ex.route("bad");
      ex.error(
          HttpResponseStatus.BAD_REQUEST,
          ex.request.method() + " is of an entry: '/" + target.archive() + "/NAME'");
      return;
    }
    writes.http(ex, target.archive(), name);
  }

  /** Refuses a request with a JSON error and the header the status calls for. */
  private static void refuse(
      Exchange ex, HttpResponseStatus status, CharSequence header, String value, String message) {
    ex.route("bad");
    HttpResponse head = ex.head(status);
    head.headers().set(header, value);
    ex.send(status, "application/json", utf8(Json.error(status.code(), message)), head);
  }

  /** What answers a request once the reader of its archive is leased to the exchange. */
  interface Answer {
    void respond(Exchange ex, String archive, boolean onWorker) throws IOException;
  }

  /** A request for something inside an archive, over HTTP: its archive found, then answered. */
  private void archiveRequest(Exchange ex, RequestPath path, boolean onWorker) throws IOException {
    ArchiveDirectory.Target target = directory.resolve(path.path());
    if (target == null) {
      ex.route("get");
      ex.error(
          HttpResponseStatus.NOT_FOUND, "no archive at '/" + firstComponent(path.path()) + "'");
      return;
    }
    String rest = target.rest();
    forArchive(
        ex, target.archive(), rest, onWorker, (e, archive, w) -> serve(e, path, archive, rest, w));
  }

  /**
   * A request for {@code rest} (an entry or a prefix) of an archive, in either dialect: counted in
   * the hot set, then answered here, or redirected or proxied to the server of the ring that owns
   * the archive.
   */
  void forArchive(Exchange ex, String archive, String rest, boolean onWorker, Answer answer)
      throws IOException {
    hotArchives.offer(archive);
    int slash = rest.lastIndexOf('/');
    hotPrefixes.offer(slash < 0 ? archive + "/" : archive + "/" + rest.substring(0, slash + 1));
    // S3 requests are answered by the server asked: an S3 client does not follow a redirect of a
    // signed request, and every server of a ring reads the same root.
    if (options.ring != null && !ex.speaksS3() && !answersFor(ex, archive)) {
      RingMember owner = options.ring.owner(archive);
      if (proxy != null) {
        ex.route("proxy");
        offload(ex, () -> proxy.forward(ex, owner, this));
      } else {
        redirect(ex, archive, owner);
      }
      return;
    }
    leased(ex, archive, onWorker, answer);
  }

  /** Sends the client to the archive's owner (307: the method and body go there as they are). */
  private static void redirect(Exchange ex, String archive, RingMember owner) {
    ex.route("redirect");
    HttpResponse head = ex.head(HttpResponseStatus.TEMPORARY_REDIRECT);
    head.headers().set(HttpHeaderNames.LOCATION, owner.baseUri() + ex.request.uri());
    ex.send(
        HttpResponseStatus.TEMPORARY_REDIRECT,
        "application/json",
        utf8(Json.error(307, "archive '" + archive + "' is served by " + owner.id())),
        head);
  }

  /** Answers with the archive's reader leased; a reader that must be opened first, on a worker. */
  private void leased(Exchange ex, String archive, boolean onWorker, Answer answer)
      throws IOException {
    ReaderPool.Lease lease = onWorker ? pool.acquire(archive) : pool.tryAcquire(archive);
    if (lease == null) {
      offload(ex, () -> leased(ex, archive, true, answer));
      return;
    }
    ex.hold(lease);
    answer.respond(ex, archive, onWorker);
  }

  /** Answers an HTTP API request for an archive whose reader is leased. */
  private void serve(Exchange ex, RequestPath path, String archive, String rest, boolean onWorker)
      throws IOException {
    if (ex.request.method().equals(HttpMethod.POST)) {
      if (!rest.equals("_mget")) {
        ex.route("bad");
        ex.error(HttpResponseStatus.METHOD_NOT_ALLOWED, "POST is for '/<archive>/_mget' only");
        return;
      }
      if (!onWorker) {
        offload(ex, () -> mget.respond(ex, archive));
        return;
      }
      mget.respond(ex, archive);
      return;
    }
    boolean listing = rest.isEmpty() || rest.endsWith("/");
    try {
      if (listing) {
        listings.respond(ex, archive, rest, path);
      } else {
        entries.respond(ex, archive, rest, onWorker);
      }
    } catch (IOException | RuntimeException e) {
      failed(ex, archive, listing ? null : rest, e);
    }
  }

  /**
   * In a ring: this server answers for an archive it owns, one hot here (TýrFS's dynamic
   * replication of hot metadata, {@link ReaderPool#isReplicated}), and any asked for by a client
   * falling back from its owner.
   */
  private boolean answersFor(Exchange ex, String archive) {
    return options.ring.owner(archive).id().equals(options.selfId)
        || ex.request.headers().contains(FALLBACK_HEADER)
        || pool.isReplicated(archive);
  }

  /** Runs work on a worker thread; a full queue is a 503. */
  void offload(Exchange ex, Work work) {
    try {
      workers.execute(
          () -> {
            try {
              work.run();
            } catch (IOException | RuntimeException e) {
              try {
                failed(ex, null, null, e);
              } catch (RuntimeException closing) {
                ex.abort(); // the server is shutting down: nothing can be written
              }
            }
          });
    } catch (RejectedExecutionException e) {
      ex.error(HttpResponseStatus.SERVICE_UNAVAILABLE, "the server is busy; try again");
    }
  }

  /** Answers an exchange that failed before its response started. */
  void failed(Exchange ex, String archive, String entry, Throwable e) {
    if (e instanceof FileNotFoundException) {
      ex.error(HttpResponseStatus.NOT_FOUND, message(e));
      return;
    }
    if (archive == null && ex.lease() != null) {
      archive = ex.lease().archive();
    }
    readFailed(archive, entry, e);
    if (e instanceof ArchiveReplacedException) {
      // The request's generation names files another archive now has: the next refresh (within
      // --refresh-ms) serves the new one. S3 clients retry a 503 (SlowDown) by themselves.
      HttpResponse head = ex.head(HttpResponseStatus.SERVICE_UNAVAILABLE);
      head.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
      ex.error(
          head,
          "archive '"
              + archive
              + "' was replaced under the server and is being opened anew: retry");
      return;
    }
    String what =
        entry != null
            ? "entry '" + entry + "' of archive '" + archive + "'"
            : archive != null ? "archive '" + archive + "'" : "the request";
    ex.error(
        HttpResponseStatus.INTERNAL_SERVER_ERROR,
        what
            + (e instanceof CorruptArchiveException ? " is damaged" : " could not be read")
            + "; the server log has details");
  }

  /**
   * Logs a read that failed, with archive and entry, once a minute for the same failure (with how
   * often it came since); damaged content is counted in the metrics every time.
   */
  void readFailed(String archive, String entry, Throwable e) {
    if (e instanceof CorruptArchiveException) {
      metrics.corruptEntries.increment();
    }
    String line =
        repeatedWarnings.line(
            (archive == null ? "" : "archive '" + archive + "'")
                + (entry == null ? "" : " entry '" + entry + "'")
                + ": "
                + message(e));
    if (line != null) {
      ServerLog.warn(line);
    }
  }

  private boolean authorized(Exchange ex) {
    String h = ex.request.headers().get(HttpHeaderNames.AUTHORIZATION);
    if (h == null || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    return MessageDigest.isEqual(token, h.substring(7).strip().getBytes(StandardCharsets.UTF_8));
  }

  private static String firstComponent(String path) {
    int slash = path.indexOf('/');
    return slash < 0 ? path : path.substring(0, slash);
  }

  /**
   * What went wrong, in words: the first message along the causes, in hpf's words (a wrapper's
   * message is often its cause's class name, which a log never shows).
   */
  static String message(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.nio.channels.ClosedChannelException) {
        return "the connection was closed";
      }
      String m = t.getMessage() == null ? "" : ProgramMessages.inOurWords(t.getMessage());
      if (!m.isBlank()) {
        return m;
      }
    }
    return "input/output error";
  }

  static io.netty.buffer.ByteBuf utf8(String s) {
    return io.netty.buffer.Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.UTF_8));
  }
}
