package io.hpf.bench.paper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.MapFile;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.DefaultCodec;

/**
 * Hadoop's MapFile: a sorted SequenceFile (block compression, zlib) with an index of every 128th
 * key, which a reader loads into memory. A get binary-searches the index, then reads forward.
 */
final class MapFileSystem implements BenchSystem {
  @Override
  public String name() {
    return "mapfile";
  }

  @Override
  public void create(BenchTarget target, Path staged, List<String> names) throws Exception {
    // Keys must be appended in Text order: unsigned bytes of the UTF-8 name.
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(
        (a, b) ->
            Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    try (MapFile.Writer writer =
        new MapFile.Writer(
            target.fs().getConf(),
            target.fs().makeQualified(target.path()),
            MapFile.Writer.keyClass(Text.class),
            SequenceFile.Writer.valueClass(BytesWritable.class),
            SequenceFile.Writer.compression(CompressionType.BLOCK, new DefaultCodec()))) {
      SequenceFileSystem.appendAll(writer::append, staged, sorted);
    }
  }

  @Override
  public Reader open(BenchTarget target) throws IOException {
    MapFile.Reader reader =
        new MapFile.Reader(target.fs().makeQualified(target.path()), target.fs().getConf());
    return new Reader() {
      private final BytesWritable value = new BytesWritable();

      @Override
      public byte[] get(String name) throws IOException {
        return reader.get(new Text(name), value) == null ? null : value.copyBytes();
      }

      @Override
      public long scan() throws IOException {
        long bytes = 0;
        reader.reset();
        Text key = new Text();
        while (reader.next(key, value)) {
          bytes += value.getLength();
        }
        return bytes;
      }

      @Override
      public void close() throws IOException {
        reader.close();
      }
    };
  }
}
