package io.hpf.server.s3;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * S3's multipart uploads, staged: each part a file of its own in a staging directory on local disk
 * (created for the server, deleted when it stops), the object assembled and committed whole on
 * CompleteMultipartUpload. An upload with no request for the expiry time is dropped with its parts,
 * as a bucket's lifecycle rule drops abandoned uploads; so is every upload when the server stops
 * (its client sees NoSuchUpload and starts again). Thread-safe.
 */
public final class MultipartUploads implements Closeable {
  /** S3's bounds on part numbers. */
  public static final int MAX_PART_NUMBER = 10_000;

  private final Path staging;
  private final long maxObjectBytes;
  private final long expiryNanos;
  private final LongSupplier clock;
  private final SecureRandom random = new SecureRandom();
  private final ConcurrentHashMap<String, Upload> uploads = new ConcurrentHashMap<>();

  /** A part staged: its number, ETag, size and when it came. */
  public record Part(int number, String etag, long size, long stagedMillis) {}

  private static final class Upload {
    final String bucket;
    final String key;
    final Map<String, String> userMetadata;
    final long initiatedMillis = System.currentTimeMillis();
    final Path directory;
    final Map<Integer, Part> parts = new TreeMap<>(); // guarded by this
    volatile long lastUsed;

    Upload(String bucket, String key, Map<String, String> userMetadata, Path directory, long now) {
      this.bucket = bucket;
      this.key = key;
      this.userMetadata = userMetadata;
      this.directory = directory;
      this.lastUsed = now;
    }
  }

  /**
   * @param maxObjectBytes the largest object an upload may assemble
   * @param expiryNanos an upload with no request for this long is dropped
   */
  public MultipartUploads(long maxObjectBytes, long expiryNanos, LongSupplier clock)
      throws IOException {
    this.staging = Files.createTempDirectory("hpf-uploads-");
    this.maxObjectBytes = maxObjectBytes;
    this.expiryNanos = expiryNanos;
    this.clock = clock;
  }

  /**
   * Starts an upload of {@code key} into {@code bucket}, the object to have {@code userMetadata}
   * ({@link UserMetadata}); returns its id.
   */
  public String create(String bucket, String key, Map<String, String> userMetadata)
      throws IOException {
    byte[] id = new byte[16];
    random.nextBytes(id);
    String uploadId = HexFormat.of().formatHex(id);
    Path directory = Files.createDirectory(staging.resolve(uploadId));
    uploads.put(
        uploadId, new Upload(bucket, key, Map.copyOf(userMetadata), directory, clock.getAsLong()));
    return uploadId;
  }

  /** Stages a part (a part of that number sent before is replaced); returns its ETag. */
  public String putPart(String uploadId, String bucket, String key, int number, byte[] content)
      throws IOException, S3Exception {
    if (number < 1 || number > MAX_PART_NUMBER) {
      throw new S3Exception(
          S3Error.INVALID_ARGUMENT, "partNumber must be from 1 to " + MAX_PART_NUMBER);
    }
    if (content.length > maxObjectBytes) {
      throw new S3Exception(
          S3Error.ENTITY_TOO_LARGE, "a part is larger than the largest object taken here");
    }
    Upload u = upload(uploadId, bucket, key);
    String etag = Etags.of(content);
    synchronized (u) {
      Path file = u.directory.resolve(Integer.toString(number));
      Files.write(file, content);
      u.parts.put(number, new Part(number, etag, content.length, System.currentTimeMillis()));
    }
    return etag;
  }

  /** An upload in progress, as ListMultipartUploads tells it. */
  public record InProgress(String key, String uploadId, long initiatedMillis) {}

  /** The uploads in progress into {@code bucket} of keys under {@code prefix}, by key and age. */
  public List<InProgress> inProgress(String bucket, String prefix) {
    List<InProgress> found = new ArrayList<>();
    uploads.forEach(
        (id, u) -> {
          if (u.bucket.equals(bucket) && u.key.startsWith(prefix)) {
            found.add(new InProgress(u.key, id, u.initiatedMillis));
          }
        });
    found.sort(
        java.util.Comparator.comparing(InProgress::key)
            .thenComparingLong(InProgress::initiatedMillis)
            .thenComparing(InProgress::uploadId));
    return found;
  }

  /** The user metadata the upload was started with. */
  public Map<String, String> userMetadata(String uploadId, String bucket, String key)
      throws S3Exception {
    return upload(uploadId, bucket, key).userMetadata;
  }

  /** The parts staged so far, by number. */
  public List<Part> parts(String uploadId, String bucket, String key) throws S3Exception {
    Upload u = upload(uploadId, bucket, key);
    synchronized (u) {
      return new ArrayList<>(u.parts.values());
    }
  }

  /**
   * The object made of the parts a CompleteMultipartUpload lists (numbers ascending, ETags as
   * staged); the upload stays until {@link #remove}d, so a failed commit can be completed again.
   *
   * @param listed part number to ETag, in the request's order
   */
  public byte[] assemble(
      String uploadId, String bucket, String key, List<Map.Entry<Integer, String>> listed)
      throws IOException, S3Exception {
    Upload u = upload(uploadId, bucket, key);
    if (listed.isEmpty()) {
      throw new S3Exception(S3Error.MALFORMED_XML, "the request lists no part");
    }
    synchronized (u) {
      long total = 0;
      int previous = 0;
      for (Map.Entry<Integer, String> p : listed) {
        if (p.getKey() <= previous) {
          throw new S3Exception(
              S3Error.INVALID_PART_ORDER, "parts must be listed by ascending part number");
        }
        previous = p.getKey();
        Part staged = u.parts.get(p.getKey());
        if (staged == null || !Etags.same(staged.etag(), p.getValue())) {
          throw new S3Exception(
              S3Error.INVALID_PART,
              "part " + p.getKey() + " was not uploaded, or its ETag is not " + p.getValue());
        }
        total += staged.size();
      }
      if (total > maxObjectBytes) {
        throw new S3Exception(
            S3Error.ENTITY_TOO_LARGE,
            "the object would be " + total + " bytes, above the " + maxObjectBytes + " taken here");
      }
      byte[] content = new byte[(int) total];
      int at = 0;
      for (Map.Entry<Integer, String> p : listed) {
        byte[] part = Files.readAllBytes(u.directory.resolve(Integer.toString(p.getKey())));
        if (part.length != u.parts.get(p.getKey()).size()) {
          throw new IOException(
              "staged part " + p.getKey() + " of upload " + uploadId + " changed");
        }
        System.arraycopy(part, 0, content, at, part.length);
        at += part.length;
      }
      return content;
    }
  }

  /** Drops an upload and its parts (aborted, or completed). */
  public void remove(String uploadId, String bucket, String key) throws S3Exception {
    Upload u = upload(uploadId, bucket, key);
    if (uploads.remove(uploadId, u)) {
      deleteQuietly(u.directory);
    }
  }

  /** Drops the uploads that had no request for the expiry time. */
  public void expire() {
    long now = clock.getAsLong();
    for (var e : uploads.entrySet()) {
      if (now - e.getValue().lastUsed > expiryNanos && uploads.remove(e.getKey(), e.getValue())) {
        deleteQuietly(e.getValue().directory);
      }
    }
  }

  /** Uploads in progress now. */
  public int size() {
    return uploads.size();
  }

  private Upload upload(String uploadId, String bucket, String key) throws S3Exception {
    Upload u = uploadId == null ? null : uploads.get(uploadId);
    if (u == null || !u.bucket.equals(bucket) || !u.key.equals(key)) {
      throw new S3Exception(
          S3Error.NO_SUCH_UPLOAD,
          "no upload '" + uploadId + "' of '" + key + "' in progress (it may have expired)");
    }
    u.lastUsed = clock.getAsLong();
    return u;
  }

  @Override
  public void close() {
    uploads.clear();
    deleteQuietly(staging);
  }

  private static void deleteQuietly(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // Only staging space is lost; the temporary directory is the system's to clear.
    }
  }
}
