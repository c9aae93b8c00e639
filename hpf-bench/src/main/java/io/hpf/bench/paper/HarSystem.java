package io.hpf.bench.paper;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.tools.HadoopArchives;
import org.apache.hadoop.util.ToolRunner;

/**
 * Hadoop Archives: the files are uploaded as plain files first (HAR archives only what is already
 * on the file system), then the archive tool runs as a MapReduce job (here MapReduce's local job
 * runner) and the uploaded files are deleted. Read through {@code har://}: the reader loads the
 * archive's master index and the index of the name's hash range.
 */
final class HarSystem implements BenchSystem {
  private static final String ARCHIVE = "files.har";

  @Override
  public String name() {
    return "har";
  }

  @Override
  public void create(BenchTarget target, Path staged, List<String> names) throws Exception {
    BenchTarget upload = target.child("upload");
    new PlainFilesSystem().create(upload, staged, names);
    Configuration conf = new Configuration(target.fs().getConf());
    conf.set("mapreduce.framework.name", "local");
    String parent = target.fs().makeQualified(target.path()).toString();
    int code =
        ToolRunner.run(
            new HadoopArchives(conf),
            new String[] {"-archiveName", ARCHIVE, "-p", parent, "upload", parent});
    if (code != 0) {
      throw new IOException("the HAR tool failed (exit " + code + ") for " + parent);
    }
    target.fs().delete(upload.path(), true);
  }

  private static URI harUri(BenchTarget target) {
    URI base = target.fs().makeQualified(target.path()).toUri();
    String authority =
        base.getAuthority() == null ? "" : base.getScheme() + "-" + base.getAuthority();
    return URI.create("har://" + authority + base.getPath() + "/" + ARCHIVE + "/upload");
  }

  @Override
  public Reader open(BenchTarget target) throws IOException {
    URI uri = harUri(target);
    // Not closed: closing a har:// file system closes the (shared) one under it, and Hadoop keeps
    // every archive's index in a process-wide cache anyway, so a "cold" HAR read is not cold.
    FileSystem har = FileSystem.get(uri, target.fs().getConf());
    return new Reader() {
      @Override
      public byte[] get(String name) throws IOException {
        try (FSDataInputStream in =
            har.open(new org.apache.hadoop.fs.Path(uri.toString() + "/" + name))) {
          return in.readAllBytes();
        } catch (FileNotFoundException e) {
          return null;
        }
      }

      @Override
      public long scan() throws IOException {
        return PlainFilesSystem.readAll(har, new org.apache.hadoop.fs.Path(uri));
      }

      @Override
      public void close() {}
    };
  }
}
