package io.hpf.mapreduce;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.EngineKeys;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.plan.ArchiveScope;
import io.hpf.hadoop.plan.EntryRun;
import io.hpf.hadoop.plan.PartRuns;
import io.hpf.select.Selector;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The splits of archives, for {@link HpfInputFormat} and {@link HpfStreamInputFormat}. The job's
 * input paths ({@code FileInputFormat.addInputPath}) name archive directories, globs of them, or
 * {@code hpf://} paths inside an archive (then only the names under that path). Computing splits
 * reads each archive's manifest and catalogs and asks for each part file's block locations once: no
 * content read, no NameNode call per entry.
 *
 * @param <V> the value type
 */
public abstract class ArchiveInputFormat<V> extends InputFormat<EntryKey, V> {
  /**
   * Most bytes of a split; default: the part file's block size, or less for a small input, so that
   * an archive's selected entries make as many splits as the job runs map tasks at once ({@link
   * #mapSlots}), none under {@link #MIN_GOAL_BYTES}.
   */
  public static final String SPLIT_SIZE = EngineKeys.SPLIT_SIZE;

  /**
   * The smallest split a small input is cut into by default: smaller ones cost more than they save.
   */
  public static final long MIN_GOAL_BYTES = 1 << 20;

  /**
   * A {@code --select} expression (docs/MAPREDUCE.md "Selecting entries"); default: every entry.
   */
  public static final String SELECT = EngineKeys.SELECT;

  /** A {@link Selector} class, instead of an expression. */
  public static final String SELECT_CLASS = EngineKeys.SELECT_CLASS;

  public static void setSplitSize(Job job, long bytes) {
    job.getConfiguration().setLong(SPLIT_SIZE, bytes);
  }

  /**
   * Selects entries with an expression, checked now.
   *
   * @throws io.hpf.select.SelectorSyntaxException pointing at the bad token
   */
  public static void setSelect(Job job, String expression) {
    Selector.parse(expression);
    job.getConfiguration().set(SELECT, expression);
  }

  public static void setSelector(Job job, Class<? extends Selector> selector) {
    job.getConfiguration().setClass(SELECT_CLASS, selector, Selector.class);
  }

  /** The job's selector: its class, else its expression, else every entry. */
  static Selector selector(Configuration conf) {
    Class<? extends Selector> type = conf.getClass(SELECT_CLASS, null, Selector.class);
    if (type != null) {
      return ReflectionUtils.newInstance(type, conf);
    }
    return Selector.parse(conf.get(SELECT, ""));
  }

  /**
   * The map tasks the job runs at once, as Hadoop says: the local job runner's map threads ({@code
   * mapreduce.local.map.tasks.maximum}; that runner sets {@code mapreduce.job.maps} to 1), else
   * {@code mapreduce.job.maps} (Hadoop's hint of map tasks per job, 2 by default).
   */
  static int mapSlots(Configuration conf) {
    boolean local =
        MRConfig.LOCAL_FRAMEWORK_NAME.equals(
            conf.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME));
    int slots =
        local
            ? conf.getInt("mapreduce.local.map.tasks.maximum", 1)
            : conf.getInt(MRJobConfig.NUM_MAPS, 2);
    return Math.max(1, slots);
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    Selector selector = selector(conf);
    long splitSize = conf.getLong(SPLIT_SIZE, 0);
    List<InputSplit> splits = new ArrayList<>();
    Path[] inputs = FileInputFormat.getInputPaths(job);
    if (inputs.length == 0) {
      throw new IOException("no input archives: add some with FileInputFormat.addInputPath");
    }
    for (Path input : inputs) {
      for (ArchiveScope scope : ArchiveScope.resolve(input, conf)) {
        splits.addAll(splitsOf(scope, selector, splitSize, conf));
      }
    }
    return splits;
  }

  private static List<HpfSplit> splitsOf(
      ArchiveScope scope, Selector selector, long splitSize, Configuration conf)
      throws IOException {
    List<EntryInfo> selected = new ArrayList<>();
    List<HpfSplit> splits = new ArrayList<>();
    try (Storage storage = HadoopArchives.open(scope.archive(), conf);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      Iterator<EntryInfo> rows = reader.list(scope.under());
      while (rows.hasNext()) {
        EntryInfo row = rows.next();
        if (scope.contains(row.name()) && selector.select(row)) {
          selected.add(row);
        }
      }
      long goal = 0;
      if (splitSize == 0) {
        long bytes = 0;
        for (EntryInfo row : selected) {
          bytes += row.accountedBytes();
        }
        int maps = mapSlots(conf);
        // 10% over an even share, as FileInputFormat's last split may be, rather than a last split
        // of a few entries.
        goal = Math.max(MIN_GOAL_BYTES, (bytes + maps - 1) / maps * 11 / 10);
      }
      for (EntryRun run : PartRuns.plan(reader, storage, selected, splitSize, goal)) {
        splits.add(
            new HpfSplit(
                scope.archive().toString(),
                run.partId(),
                run.offsets(),
                run.entryLengths(),
                run.members(),
                run.bytes(),
                run.hosts()));
      }
    }
    return splits;
  }
}
