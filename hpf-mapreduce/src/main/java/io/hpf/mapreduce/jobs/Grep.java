package io.hpf.mapreduce.jobs;

import io.hpf.hadoop.EngineKeys;
import io.hpf.mapreduce.EntryKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/** Grep: the lines that contain a match of a Java regular expression, as {@code name:line}. */
public final class Grep {
  /** The pattern (a Java regular expression), searched in each line decoded as UTF-8. */
  public static final String PATTERN = EngineKeys.GREP_PATTERN;

  private Grep() {}

  public static final class Map extends Mapper<EntryKey, BytesWritable, Text, NullWritable> {
    private Pattern pattern;
    private final Text out = new Text();

    @Override
    protected void setup(Context context) {
      pattern = Pattern.compile(context.getConfiguration().get(PATTERN));
    }

    @Override
    protected void map(EntryKey key, BytesWritable value, Context context)
        throws IOException, InterruptedException {
      String prefix = key.name() + ":";
      Lines.each(
          value.getBytes(),
          value.getLength(),
          (b, start, end) -> {
            String line = new String(b, start, end - start, StandardCharsets.UTF_8);
            if (pattern.matcher(line).find()) {
              out.set(prefix + line);
              context.write(out, NullWritable.get());
            }
          });
    }
  }

  /** Writes each matching line once per occurrence (the --reduce phase: one sorted result). */
  public static final class Collect extends Reducer<Text, NullWritable, Text, NullWritable> {
    @Override
    protected void reduce(Text line, Iterable<NullWritable> values, Context context)
        throws IOException, InterruptedException {
      for (NullWritable v : values) {
        context.write(line, v);
      }
    }
  }
}
