package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hpf.archive.model.Codec;
import io.hpf.hadoop.HdfsSettings;
import io.hpf.hadoop.LocalHdfs;
import io.hpf.server.client.HpfHttpClient;
import io.hpf.server.testing.TestServer;
import io.hpf.testing.ModelArchive;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A root on a real HDFS (a NameNode and a DataNode in processes of their own): every entry of an
 * archive in every codec over HTTP equals the model, listings and _mget work, and a commit made on
 * HDFS is served within a second. With -Plong: starting HDFS's daemons costs half a minute of the
 * default suite, and Hadoop roots read through the storage every HDFS test covers.
 */
@Tag("long")
class HdfsServeTest {
  @TempDir Path temp;

  @Test
  void archivesOnHdfsAreServedAndCommitsSeen() throws Exception {
    String classpath =
        Files.readString(
                Path.of("../hpf-hadoop/target/hdfs-daemons.classpath"), StandardCharsets.UTF_8)
            .trim();
    LocalHdfs hdfs = new LocalHdfs(temp.resolve("hdfs")).onAnyPort();
    URI uri = hdfs.start(1, classpath, 120_000).uri();
    try {
      Configuration conf = new Configuration();
      HdfsSettings.applyFastClose(conf);
      conf.setInt("dfs.replication", 1);
      FileSystem fs = FileSystem.newInstance(uri, conf);
      ModelArchive made = ModelArchive.write(temp.resolve("local/zstd.hpf"), Codec.ZSTD, 150, 9);
      fs.copyFromLocalFile(
          new org.apache.hadoop.fs.Path(temp.resolve("local/zstd.hpf").toUri()),
          new org.apache.hadoop.fs.Path(uri + "/data/set/zstd.hpf"));
      ServerOptions o = TestServer.options(temp);
      o.root = uri + "/data/";
      o.refreshMillis = 200;
      try (HpfServer server = TestServer.start(o)) {
        HpfHttpClient client = HpfHttpClient.of(TestServer.base(server));
        for (Map.Entry<String, byte[]> e : made.live().entrySet()) {
          assertArrayEquals(e.getValue(), client.get("set/zstd", e.getKey()), e.getKey());
        }
        for (String name : made.deleted()) {
          assertNull(client.get("set/zstd", name));
        }
        List<String> some = List.copyOf(made.live().keySet()).subList(0, 10);
        assertEquals(10, client.mget("set/zstd", some).size());
        assertEquals(
            "large/",
            client.list("set/zstd", "", true, null, 1000).prefixes().stream()
                .filter(p -> p.equals("large/"))
                .findFirst()
                .orElse(null));
        TestServer.commitIsServedWithinASecond(
            fs,
            new org.apache.hadoop.fs.Path(uri + "/data/set/zstd.hpf"),
            client,
            "set/zstd",
            "added/on-hdfs.txt");
      }
      fs.close();
    } finally {
      hdfs.stop();
    }
  }
}
