package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.SeaweedS3;
import io.hpf.server.client.HpfHttpClient;
import io.hpf.server.testing.TestServer;
import io.hpf.store.Storage;
import io.hpf.testing.ModelArchive;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A root in S3 (s3a:// on SeaweedFS, a real S3 server in a process of its own): every entry over
 * the HTTP API equals the model, the S3 API answers from it, and a commit written to S3 is served
 * within a second. With -Plong (HdfsServeTest's counterpart; the default suite's budget has no
 * room).
 */
@Tag("long")
class S3aServeTest {
  @TempDir Path temp;

  @Test
  void archivesInS3AreServedAndCommitsSeen() throws Exception {
    SeaweedS3 s3 = SeaweedS3.sharedOrSkip();
    FileSystem fs = s3.fs();
    org.apache.hadoop.fs.Path root = s3.freshPath("archives");
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(root, "photos.hpf");
    Storage storage =
        HadoopStorage.createDirectories(fs, dir, HadoopStorageOptions.DEFAULTS, false);
    ModelArchive made = ModelArchive.write(storage, 120, 21);
    ServerOptions o = TestServer.options(temp);
    o.root = root + "/";
    o.hadoopProperties = s3.properties();
    o.refreshMillis = 200;
    try (HpfServer server = TestServer.start(o)) {
      HpfHttpClient client = HpfHttpClient.of(TestServer.base(server));
      for (Map.Entry<String, byte[]> e : made.live().entrySet()) {
        assertArrayEquals(e.getValue(), client.get("photos", e.getKey()), e.getKey());
      }
      for (String name : made.deleted()) {
        assertNull(client.get("photos", name));
      }
      HttpResponse<String> list =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(TestServer.base(server) + "/photos?list-type=2&max-keys=1000"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, list.statusCode());
      assertEquals(
          made.live().size(), list.body().split("<Key>", -1).length - 1, "keys in the listing");
      TestServer.commitIsServedWithinASecond(fs, dir, client, "photos", "added/in-s3.txt");
    }
  }
}
