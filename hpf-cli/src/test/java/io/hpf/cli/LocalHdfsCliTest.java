package io.hpf.cli;

import static io.hpf.cli.CliRun.hpf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.testing.ArchiveModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpf hdfs start|status|stop}: a NameNode and two DataNodes as real separate processes, an
 * archive written to and read from them, and everything stopped again.
 */
class LocalHdfsCliTest {
  @TempDir Path temp;

  @Test
  void startWriteReadStop() throws Exception {
    Path home = temp.resolve("hdfs");
    try {
      CliRun start = hpf("hdfs", "start", "--home", home, "--datanodes", 2);
      assertEquals(0, start.code(), start.err() + start.text());
      CliRun status = hpf("hdfs", "status", "--home", home, "--uri");
      assertEquals(0, status.code(), status.err());
      String uri = status.text().trim();
      assertTrue(uri.matches("hdfs://127\\.0\\.0\\.1:\\d+"), uri);
      assertTrue(Files.isRegularFile(home.resolve("conf/hdfs-site.xml")));
      CliRun conf = hpf("hdfs", "status", "--home", home, "--conf-dir");
      assertEquals(home.resolve("conf").toString(), conf.text().strip());
      // A client given it as HADOOP_CONF_DIR writes as many replicas as there are DataNodes,
      // and logs warnings only, to standard error: never into what it prints.
      String site = Files.readString(home.resolve("conf/hdfs-site.xml"));
      assertTrue(site.contains("<name>dfs.replication</name><value>2</value>"), site);
      String log = Files.readString(home.resolve("conf/log4j.properties"));
      assertTrue(log.contains("rootLogger=WARN") && log.contains("Target=System.err"), log);

      TreeMap<String, byte[]> model = ArchiveModel.random(100, 31);
      Path source = temp.resolve("src");
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        Path file = source.resolve(e.getKey());
        Files.createDirectories(file.getParent());
        Files.write(file, e.getValue());
      }
      CliRun create = hpf("create", uri + "/a.hpf", source);
      assertEquals(0, create.code(), create.err());
      CliRun cat = hpf("cat", uri + "/a.hpf", model.firstKey());
      assertArrayEquals(model.firstEntry().getValue(), cat.out());
      assertEquals(0, hpf("verify", uri + "/a.hpf").code());
      CliRun again = hpf("hdfs", "start", "--home", home);
      assertEquals(1, again.code(), "a second start is refused");
      assertTrue(again.err().contains("already running"), again.err());
    } finally {
      CliRun stop = hpf("hdfs", "stop", "--home", home);
      assertEquals(0, stop.code(), stop.err());
    }
    assertEquals(1, hpf("hdfs", "status", "--home", home).code(), "stopped");
  }
}
