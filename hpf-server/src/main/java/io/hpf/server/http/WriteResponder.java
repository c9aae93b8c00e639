package io.hpf.server.http;

import io.hpf.archive.GroupCommitWriter;
import io.hpf.archive.model.ArchiveLockedException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.NameConflictException;
import io.hpf.server.archives.ArchiveDirectory;
import io.hpf.server.archives.ArchiveWriters;
import io.hpf.server.archives.ReaderPool;
import io.hpf.server.s3.ChunkSignatures;
import io.hpf.server.s3.ContentChecksums;
import io.hpf.server.s3.DeleteObjects;
import io.hpf.server.s3.Etags;
import io.hpf.server.s3.MultipartUploads;
import io.hpf.server.s3.S3Error;
import io.hpf.server.s3.S3Exception;
import io.hpf.server.s3.S3Xml;
import io.hpf.server.s3.UserMetadata;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;

/**
 * Writes on a {@code --writable} server, in both dialects, each answered only once the commit
 * holding it is durable (and the server's readers see it): S3's PutObject (with Content-MD5, {@code
 * x-amz-checksum-*} and {@code aws-chunked} bodies checked, {@code If-None-Match: *} and {@code
 * If-Match}), CopyObject, DeleteObject, DeleteObjects and CreateBucket; the HTTP API's PUT and
 * DELETE of {@code /ARCHIVE/NAME}. A body that fails a check commits nothing. Called on a worker
 * thread, the request authorized.
 */
final class WriteResponder {
  /** S3's bucket names: 3 to 63 of lower-case letters, digits, dots and hyphens. */
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  private final RequestRouter router;
  private final ArchiveDirectory directory;
  private final ReaderPool pool;
  private final ArchiveWriters writers;
  private final MultipartResponder multipart;

  WriteResponder(
      RequestRouter router,
      ArchiveDirectory directory,
      ReaderPool pool,
      ArchiveWriters writers,
      MultipartUploads uploads) {
    this.router = router;
    this.directory = directory;
    this.pool = pool;
    this.writers = writers;
    this.multipart = new MultipartResponder(this, uploads);
  }

  /** An S3 write: of {@code key} in {@code bucket}, or of the bucket when the key is empty. */
  void s3(
      Exchange ex, String bucket, String key, Map<String, String> query, ChunkSignatures signatures)
      throws IOException, S3Exception {
    HttpMethod method = ex.request.method();
    if (!key.isEmpty() && (query.containsKey("uploads") || query.containsKey("uploadId"))) {
      if (!bucket.equals(archiveOf(bucket))) {
        throw new S3Exception(S3Error.NO_SUCH_BUCKET, "no archive '" + bucket + "'");
      }
      multipart.respond(ex, bucket, key, query, signatures);
      return;
    }
    if (key.isEmpty() && method.equals(HttpMethod.GET) && query.containsKey("uploads")) {
      if (!bucket.equals(archiveOf(bucket))) {
        throw new S3Exception(S3Error.NO_SUCH_BUCKET, "no archive '" + bucket + "'");
      }
      multipart.listUploads(ex, bucket, query.getOrDefault("prefix", ""));
      return;
    }
    if (key.isEmpty()) {
      bucketWrite(ex, method, bucket, query);
      return;
    }
    if (!bucket.equals(archiveOf(bucket))) {
      throw new S3Exception(S3Error.NO_SUCH_BUCKET, "no archive '" + bucket + "'");
    }
    ex.route(method.name().toLowerCase(java.util.Locale.ROOT));
    if (method.equals(HttpMethod.DELETE)) {
      answer(ex, bucket, key, writers.delete(bucket, key), g -> noContent(ex));
    } else if (!method.equals(HttpMethod.PUT)) {
      throw new S3Exception(S3Error.METHOD_NOT_ALLOWED, method + " of an object is not taken");
    } else if (ex.request.headers().contains("x-amz-copy-source")) {
      copy(ex, bucket, key);
    } else {
      put(ex, bucket, key, signatures);
    }
  }

  private void bucketWrite(Exchange ex, HttpMethod method, String bucket, Map<String, String> query)
      throws IOException, S3Exception {
    ex.route("bucket");
    if (method.equals(HttpMethod.POST) && query.containsKey("delete")) {
      deleteObjects(ex, bucket);
    } else if (method.equals(HttpMethod.PUT) && query.isEmpty()) {
      createBucket(ex, bucket);
    } else if (method.equals(HttpMethod.DELETE) && query.isEmpty()) {
      deleteBucket(ex, bucket);
    } else {
      throw new S3Exception(S3Error.NOT_IMPLEMENTED, method + " of a bucket is not taken");
    }
  }

  private void put(Exchange ex, String bucket, String key, ChunkSignatures signatures)
      throws IOException, S3Exception {
    Map<String, String> userMetadata = UserMetadata.of(ex.request.headers()); // refused first
    UploadBody body = UploadBody.read(ex, signatures);
    String etag = Etags.of(body.content());
    put(
        ex,
        bucket,
        key,
        body.content(),
        userMetadata,
        g -> {
          HttpResponse head = ex.head(HttpResponseStatus.OK);
          head.headers().set(HttpHeaderNames.ETAG, etag);
          body.checksums().forEach((name, value) -> head.headers().set(name, value));
          ex.send(HttpResponseStatus.OK, null, io.netty.buffer.Unpooled.EMPTY_BUFFER, head);
        });
  }

  /** CopyObject from an object of an archive this server serves (a whole object; no ranges). */
  private void copy(Exchange ex, String bucket, String key) throws IOException, S3Exception {
    boolean replaceMetadata = replacesMetadata(ex.request.headers());
    Map<String, String> requested = replaceMetadata ? UserMetadata.of(ex.request.headers()) : null;
    CopySource source = copySource(ex);
    String etag = Etags.of(source.content());
    put(
        ex,
        bucket,
        key,
        source.content(),
        replaceMetadata ? requested : source.attributes(),
        g ->
            ex.sendText(
                HttpResponseStatus.OK,
                "application/xml",
                S3Xml.copyResult(etag, System.currentTimeMillis())));
  }

  /** An object a copy reads (x-amz-copy-source): its content and attributes. */
  record CopySource(byte[] content, Map<String, String> attributes) {}

  /** The object x-amz-copy-source names, of any archive this server serves. */
  CopySource copySource(Exchange ex) throws IOException, S3Exception {
    String source =
        java.net.URLDecoder.decode(
            ex.request.headers().get("x-amz-copy-source"), java.nio.charset.StandardCharsets.UTF_8);
    int q = source.indexOf("?versionId=");
    if (q >= 0) {
      source = source.substring(0, q);
    }
    source = source.startsWith("/") ? source.substring(1) : source;
    int slash = source.indexOf('/');
    if (slash <= 0 || slash == source.length() - 1) {
      throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-copy-source must be BUCKET/KEY");
    }
    String fromBucket = source.substring(0, slash);
    String fromKey = source.substring(slash + 1);
    if (!fromBucket.equals(archiveOf(fromBucket))) {
      throw new S3Exception(S3Error.NO_SUCH_BUCKET, "no archive '" + fromBucket + "'");
    }
    try (ReaderPool.Lease lease = pool.acquire(fromBucket)) {
      EntryInfo from = lease.reader().stat(fromKey);
      if (from == null) {
        throw new S3Exception(S3Error.NO_SUCH_KEY, "no object '" + fromKey + "' to copy");
      }
      return new CopySource(lease.reader().get(fromKey), from.attributes());
    }
  }

  /** CopyObject's x-amz-metadata-directive: COPY (the default) keeps the source's metadata. */
  private static boolean replacesMetadata(HttpHeaders headers) throws S3Exception {
    String directive = headers.get("x-amz-metadata-directive");
    if (directive == null || directive.equals("COPY")) {
      return false;
    }
    if (directive.equals("REPLACE")) {
      return true;
    }
    throw new S3Exception(
        S3Error.INVALID_ARGUMENT, "x-amz-metadata-directive must be COPY or REPLACE");
  }

  private void deleteObjects(Exchange ex, String bucket) throws IOException, S3Exception {
    if (!bucket.equals(archiveOf(bucket))) {
      throw new S3Exception(S3Error.NO_SUCH_BUCKET, "no archive '" + bucket + "'");
    }
    byte[] body = UploadBody.bytes(ex);
    ContentChecksums.check(body, ex.request.headers()::get, Map.of());
    DeleteObjects request = DeleteObjects.parse(body);
    List<CompletableFuture<Generation>> pending = new ArrayList<>();
    for (String key : request.keys()) {
      CompletableFuture<Generation> f;
      try {
        f = writers.delete(bucket, key);
      } catch (IOException | RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      pending.add(f);
    }
    CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
        .handle(
            (v, ignored) -> {
              List<String> deleted = new ArrayList<>();
              List<DeleteObjects.Failure> failures = new ArrayList<>();
              for (int i = 0; i < pending.size(); i++) {
                String key = request.keys().get(i);
                try {
                  pending.get(i).join();
                  deleted.add(key);
                } catch (CompletionException e) {
                  S3Exception s3 = s3Error(bucket, key, e.getCause());
                  failures.add(new DeleteObjects.Failure(key, s3.error(), s3.getMessage()));
                }
              }
              ex.sendText(
                  HttpResponseStatus.OK, "application/xml", request.result(deleted, failures));
              return null;
            });
  }

  private void createBucket(Exchange ex, String bucket) throws IOException, S3Exception {
    if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
      throw new S3Exception(
          S3Error.INVALID_BUCKET_NAME,
          "'" + bucket + "' is not a bucket name (3-63 of a-z, 0-9, '.', '-')");
    }
    try {
      writers.create(bucket);
    } catch (FileAlreadyExistsException e) {
      throw new S3Exception(
          S3Error.BUCKET_ALREADY_OWNED_BY_YOU, "there is an archive '" + bucket + "' already");
    }
    HttpResponse head = ex.head(HttpResponseStatus.OK);
    head.headers().set(HttpHeaderNames.LOCATION, "/" + bucket);
    ex.send(HttpResponseStatus.OK, null, io.netty.buffer.Unpooled.EMPTY_BUFFER, head);
  }

  /** DeleteBucket: an empty archive goes, directory and all; one with entries stays. */
  private void deleteBucket(Exchange ex, String bucket) throws IOException, S3Exception {
    if (!bucket.equals(archiveOf(bucket))) {
      throw new S3Exception(S3Error.NO_SUCH_BUCKET, "no archive '" + bucket + "'");
    }
    try {
      writers.deleteEmpty(bucket);
    } catch (ArchiveWriters.NotEmptyException e) {
      throw new S3Exception(S3Error.BUCKET_NOT_EMPTY, e.getMessage());
    } catch (java.nio.file.DirectoryNotEmptyException e) {
      throw new S3Exception(
          S3Error.BUCKET_NOT_EMPTY,
          "archive '" + bucket + "' is empty, but its directory holds other files: kept");
    }
    noContent(ex);
  }

  /** An HTTP API write: PUT (the body is the content) or DELETE of an entry. */
  void http(Exchange ex, String archive, String name) {
    HttpMethod method = ex.request.method();
    ex.route(method.name().toLowerCase(java.util.Locale.ROOT));
    try {
      CompletableFuture<Generation> done;
      String etag = null;
      if (method.equals(HttpMethod.DELETE)) {
        done = writers.delete(archive, name);
      } else {
        byte[] content = UploadBody.bytes(ex);
        etag = Etags.of(content);
        done =
            writers.put(
                archive, name, content, metadata(Map.of()), condition(ex.request.headers()));
      }
      String tag = etag;
      done.whenComplete(
          (g, e) -> {
            if (e != null) {
              httpFailed(ex, archive, name, e instanceof CompletionException ? e.getCause() : e);
            } else if (tag == null) {
              noContent(ex);
            } else {
              HttpResponse head = ex.head(HttpResponseStatus.CREATED);
              head.headers().set(HttpHeaderNames.ETAG, tag);
              ex.send(
                  HttpResponseStatus.CREATED,
                  "application/json",
                  RequestRouter.utf8(Json.written(archive, name, g.generation(), tag)),
                  head);
            }
          });
    } catch (IOException | RuntimeException e) {
      httpFailed(ex, archive, name, e);
    }
  }

  private void httpFailed(Exchange ex, String archive, String name, Throwable e) {
    S3Exception s3 = s3Error(archive, name, e);
    HttpResponseStatus status =
        s3.error() == S3Error.INVALID_ARGUMENT && e instanceof NameConflictException
            ? HttpResponseStatus.CONFLICT
            : HttpResponseStatus.valueOf(s3.error().status());
    HttpResponse head = ex.head(status);
    if (s3.error() == S3Error.SLOW_DOWN) {
      head.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
    }
    ex.error(head, s3.getMessage());
  }

  /**
   * Puts an object (under the request's If-None-Match and If-Match) and answers once it is
   * committed, or with the reason it was not.
   */
  void put(
      Exchange ex,
      String bucket,
      String key,
      byte[] content,
      Map<String, String> userMetadata,
      java.util.function.Consumer<Generation> success)
      throws IOException {
    answer(
        ex,
        bucket,
        key,
        writers.put(bucket, key, content, metadata(userMetadata), condition(ex.request.headers())),
        success);
  }

  /** Answers a change once committed, or with the reason it was not. */
  private void answer(
      Exchange ex,
      String bucket,
      String key,
      CompletableFuture<Generation> done,
      java.util.function.Consumer<Generation> success) {
    done.whenComplete(
        (g, e) -> {
          if (e == null) {
            success.accept(g);
          } else {
            S3Exception s3 =
                s3Error(bucket, key, e instanceof CompletionException ? e.getCause() : e);
            ex.s3Error(s3.error(), s3.getMessage(), null);
          }
        });
  }

  /** The S3 error for a change that failed, in hpf's words; logged when it is the server's. */
  S3Exception s3Error(String archive, String key, Throwable e) {
    if (e instanceof S3Exception s3) {
      return s3;
    }
    if (e instanceof GroupCommitWriter.PreconditionFailedException) {
      return new S3Exception(S3Error.PRECONDITION_FAILED, RequestRouter.message(e));
    }
    if (e instanceof NameConflictException || e instanceof IllegalArgumentException) {
      return new S3Exception(S3Error.INVALID_ARGUMENT, RequestRouter.message(e));
    }
    if (e instanceof ArchiveWriters.BusyException) {
      return new S3Exception(S3Error.SLOW_DOWN, RequestRouter.message(e));
    }
    if (e instanceof ArchiveLockedException) {
      return new S3Exception(
          S3Error.SLOW_DOWN,
          "archive '"
              + archive
              + "' is being written by another writer: "
              + RequestRouter.message(e));
    }
    if (e instanceof FileNotFoundException) {
      return new S3Exception(S3Error.NO_SUCH_BUCKET, RequestRouter.message(e));
    }
    router.readFailed(archive, key, e);
    if (outOfSpace(e)) { // not the client's to retry at once (S3 has no code: 507, as WebDAV)
      return new S3Exception(
          S3Error.INSUFFICIENT_STORAGE,
          "'"
              + key
              + "' of archive '"
              + archive
              + "' could not be written: no space left on the server's disk");
    }
    return new S3Exception(
        S3Error.INTERNAL_ERROR,
        "'"
            + key
            + "' of archive '"
            + archive
            + "' could not be written; the server log has details");
  }

  /** Whether a write failed for want of space: ENOSPC or EDQUOT somewhere along the causes. */
  static boolean outOfSpace(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (m != null
          && (m.contains("No space left on device") || m.contains("Disk quota exceeded"))) {
        return true;
      }
    }
    return false;
  }

  private String archiveOf(String bucket) throws IOException {
    ArchiveDirectory.Target t = directory.resolve(bucket);
    return t == null ? null : t.archive();
  }

  private static void noContent(Exchange ex) {
    ex.send(
        HttpResponseStatus.NO_CONTENT,
        null,
        io.netty.buffer.Unpooled.EMPTY_BUFFER,
        ex.head(HttpResponseStatus.NO_CONTENT));
  }

  /** If-None-Match: * (create only) or If-Match (replace only that version); none: always. */
  static GroupCommitWriter.Precondition condition(HttpHeaders h) {
    String noneMatch = h.get(HttpHeaderNames.IF_NONE_MATCH);
    String match = h.get(HttpHeaderNames.IF_MATCH);
    if (noneMatch == null && match == null) {
      return GroupCommitWriter.Precondition.NONE;
    }
    return (committed, name) -> {
      boolean exists = committed.stat(name) != null;
      String current = exists ? Etags.of(committed.get(name)) : null;
      if (noneMatch != null
          && (noneMatch.strip().equals("*")
              ? exists
              : EntryResponder.matches(noneMatch, current))) {
        return false;
      }
      return match == null
          || (exists && (match.strip().equals("*") || EntryResponder.matches(match, current)));
    };
  }

  /** A written object's metadata: the time it was taken, and its user metadata as attributes. */
  static EntryMetadata metadata(Map<String, String> userMetadata) {
    return new EntryMetadata(System.currentTimeMillis(), EntryMetadata.DEFAULT_MODE, userMetadata);
  }
}
