package io.hpf.bench.paper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.DefaultCodec;

/**
 * Hadoop's SequenceFile of (name, content) records, with record or block compression (zlib, the
 * default codec): the classic way to pack small files (paper 002). It has no index, so a get reads
 * from the start until it finds the name.
 */
final class SequenceFileSystem implements BenchSystem {
  private final CompressionType compression;

  SequenceFileSystem(CompressionType compression) {
    this.compression = compression;
  }

  @Override
  public String name() {
    return "seqfile-" + compression.name().toLowerCase(Locale.ROOT);
  }

  private static org.apache.hadoop.fs.Path file(BenchTarget target) {
    return new org.apache.hadoop.fs.Path(target.path(), "data.seq");
  }

  @Override
  public void create(BenchTarget target, Path staged, List<String> names) throws Exception {
    target.fs().mkdirs(target.path());
    try (SequenceFile.Writer writer =
        SequenceFile.createWriter(
            target.fs().getConf(),
            SequenceFile.Writer.file(file(target)),
            SequenceFile.Writer.keyClass(Text.class),
            SequenceFile.Writer.valueClass(BytesWritable.class),
            SequenceFile.Writer.compression(compression, new DefaultCodec()))) {
      appendAll(writer::append, staged, names);
    }
  }

  /** Something that takes (name, content) records: a SequenceFile or MapFile writer. */
  interface RecordSink {
    void append(Text key, BytesWritable value) throws IOException;
  }

  /** Appends the staged files {@code names}, in that order, as (name, content) records. */
  static void appendAll(RecordSink sink, Path staged, List<String> names) throws IOException {
    Text key = new Text();
    BytesWritable value = new BytesWritable();
    for (String name : names) {
      byte[] content = Files.readAllBytes(staged.resolve(name));
      key.set(name);
      value.set(content, 0, content.length);
      sink.append(key, value);
    }
  }

  @Override
  public Reader open(BenchTarget target) throws IOException {
    return new Reader() {
      @Override
      public byte[] get(String name) throws IOException {
        Text wanted = new Text(name);
        try (SequenceFile.Reader reader = reader(target)) {
          Text key = new Text();
          BytesWritable value = new BytesWritable();
          while (reader.next(key, value)) {
            if (key.equals(wanted)) {
              return value.copyBytes();
            }
          }
          return null;
        }
      }

      @Override
      public long scan() throws IOException {
        long bytes = 0;
        try (SequenceFile.Reader reader = reader(target)) {
          Text key = new Text();
          BytesWritable value = new BytesWritable();
          while (reader.next(key, value)) {
            bytes += value.getLength();
          }
        }
        return bytes;
      }

      @Override
      public void close() {}
    };
  }

  private static SequenceFile.Reader reader(BenchTarget target) throws IOException {
    return new SequenceFile.Reader(
        target.fs().getConf(), SequenceFile.Reader.file(target.fs().makeQualified(file(target))));
  }
}
