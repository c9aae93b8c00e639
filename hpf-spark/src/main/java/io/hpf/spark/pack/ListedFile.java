package io.hpf.spark.pack;

import io.hpf.pack.SourceTree.SourceFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A file of the source tree as a listing task found it: its entry name, where it is, its size,
 * times and mode, and the hosts of its first block (where a pack task reading it is local).
 */
record ListedFile(String name, String path, long size, long mtimeMillis, int mode, String[] hosts)
    implements Serializable {
  ListedFile {
    hosts = hosts.clone();
  }

  @Override
  public String[] hosts() {
    return hosts.clone();
  }

  /** This file as the packer reads it, through {@code conf}'s file system. */
  SourceFile source(Configuration conf) {
    return new SourceFile() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long size() {
        return size;
      }

      @Override
      public long mtimeMillis() {
        return mtimeMillis;
      }

      @Override
      public int mode() {
        return mode;
      }

      @Override
      public String describe() {
        return path;
      }

      @Override
      public InputStream open() throws IOException {
        Path p = new Path(path);
        return p.getFileSystem(conf).open(p);
      }
    };
  }
}
