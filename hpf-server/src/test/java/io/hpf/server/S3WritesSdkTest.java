package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.server.s3.S3Keys;
import io.hpf.server.testing.TestServer;
import io.hpf.store.LocalStorage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Writes from the AWS SDK for Java v2, which sends uploads {@code aws-chunked} with signed chunks
 * and a trailing checksum (as Hadoop's S3A does): each arrives whole and checked, a tampered chunk
 * or checksum commits nothing.
 */
class S3WritesSdkTest {
  static final String ACCESS = "SDKTEST";
  static final String SECRET = "sdk/secret";
  @TempDir static Path root;
  static HpfServer server;
  static S3Client s3;

  @BeforeAll
  static void start() throws Exception {
    try (ArchiveWriter w =
        ArchiveWriter.create(
            LocalStorage.createDirectories(root.resolve("logs.hpf")),
            WriterOptions.builder().build())) {
      w.add("old.log", new byte[] {1, 2, 3}, EntryMetadata.of(0));
      w.commit();
    }
    Path keys = root.resolve("keys.txt");
    Files.writeString(keys, ACCESS + " " + SECRET + "\n");
    ServerOptions o = TestServer.options(root);
    o.s3Keys = S3Keys.read(keys);
    o.writable = true;
    server = TestServer.start(o);
    s3 =
        S3Client.builder()
            .endpointOverride(URI.create(TestServer.base(server)))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET)))
            .build();
  }

  @AfterAll
  static void stop() {
    s3.close();
    server.close();
  }

  @Test
  void chunkedSignedUploadsWithEachChecksumAreCommittedAndReadBack() throws Exception {
    Random random = new Random(4);
    int i = 0;
    for (ChecksumAlgorithm algorithm :
        new ChecksumAlgorithm[] {
          ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32_C, ChecksumAlgorithm.SHA256
        }) {
      for (int size : new int[] {0, 1, 70_000, 300_000}) {
        byte[] content = new byte[size];
        random.nextBytes(content);
        String key = "sdk/" + algorithm + "/" + size;
        s3.putObject(
            b -> b.bucket("logs").key(key).checksumAlgorithm(algorithm),
            RequestBody.fromBytes(content));
        assertArrayEquals(
            content, s3.getObjectAsBytes(b -> b.bucket("logs").key(key)).asByteArray(), key);
        i++;
      }
    }
    s3.deleteObject(b -> b.bucket("logs").key("old.log"));
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(root.resolve("logs.hpf")))) {
      assertEquals(i, r.manifest().liveEntries());
    }
    assertTrue(
        ArchiveVerifier.verify(LocalStorage.open(root.resolve("logs.hpf")), ProgressListener.NONE)
            .ok());
  }

  @Test
  void aWrongChecksumIsRefusedAndCommitsNothing() {
    S3Exception e =
        assertThrows(
            S3Exception.class,
            () ->
                s3.putObject(
                    b -> b.bucket("logs").key("bad.bin").checksumCRC32("AAAAAA=="),
                    RequestBody.fromBytes(new byte[] {9, 9, 9})));
    assertEquals(400, e.statusCode());
    assertEquals("BadDigest", e.awsErrorDetails().errorCode());
    assertThrows(S3Exception.class, () -> s3.headObject(b -> b.bucket("logs").key("bad.bin")));
  }
}
