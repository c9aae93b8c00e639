package io.hpf.hadoop.fs.contract;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * Hadoop's file-system contract for {@code hpf://} over an archive on local disk: what hpf supports
 * is declared in {@code contract/hpf.xml}; test fixtures are written through {@link
 * WritableHpfFileSystem}.
 */
public class HpfContract extends AbstractFSContract {
  private FileSystem fs;
  private Path root;
  private static java.nio.file.Path parent;

  public HpfContract(Configuration conf) {
    super(conf);
    addConfResource("contract/hpf.xml");
  }

  @Override
  public void init() throws IOException {
    super.init();
    java.nio.file.Path dir = Files.createTempDirectory(parent(), "c").resolve("c.hpf");
    root = new Path("hpf://file-" + dir.toUri().getPath());
    Configuration conf = new Configuration(getConf());
    conf.setLong("fs.hpf.refresh.interval.ms", 0); // fixtures commit between reads
    fs = new WritableHpfFileSystem();
    fs.initialize(URI.create("hpf://file-/"), conf);
  }

  /** One directory of this JVM's contract archives, deleted when it exits. */
  private static synchronized java.nio.file.Path parent() throws IOException {
    if (parent == null) {
      parent = io.hpf.testing.TempDirs.deletedAtExit("hpf-contract");
    }
    return parent;
  }

  @Override
  public FileSystem getTestFileSystem() {
    return fs;
  }

  @Override
  public String getScheme() {
    return "hpf";
  }

  @Override
  public Path getTestPath() {
    return new Path(root, "test");
  }
}
