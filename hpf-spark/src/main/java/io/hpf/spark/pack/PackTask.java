package io.hpf.spark.pack;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.pack.Packer;
import io.hpf.pack.SourceTree;
import io.hpf.pack.SourceTree.SourceFile;
import io.hpf.spark.HadoopConf;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;

/**
 * A pack task: reads its group's files (with the core's packer, {@code threads} at a time) into an
 * archive of its own in the job's staging directory, with the job's codec, level, groups and
 * dictionary, and commits it; returns the directory's name. A failure deletes what the attempt
 * wrote.
 */
final class PackTask implements Function<PackGroup, String> {
  private static final long serialVersionUID = 1L;

  private final HadoopConf conf;
  private final String jobDir;
  private final PackingRequest packing;
  private final byte[] dictionary;
  private final int threads;

  /**
   * @param packing the job's, with the codec the job's archive is packed with
   */
  PackTask(HadoopConf conf, URI jobDir, PackingRequest packing, byte[] dictionary, int threads) {
    this.conf = conf;
    this.jobDir = jobDir.toString();
    this.packing = packing;
    this.dictionary = dictionary == null ? null : dictionary.clone();
    this.threads = threads;
  }

  @Override
  public String call(PackGroup group) throws IOException {
    TaskContext task = TaskContext.get();
    String name = "pack-" + task.partitionId() + "-attempt-" + task.taskAttemptId();
    URI dir = URI.create(jobDir + "/" + name);
    WriterOptions options =
        packing
            .applyTo(WriterOptions.builder())
            .dictionary(dictionary)
            .gracePeriodMillis(0)
            .build();
    try (Storage storage = HadoopArchives.create(dir, conf.get());
        ArchiveWriter writer = ArchiveWriter.create(storage, options)) {
      Packer.addTree(
          writer,
          new GroupTree(group.files(), conf),
          "",
          new Packer.Options(threads, false, false, false),
          ProgressListener.NONE);
      writer.commit();
    } catch (IOException | RuntimeException e) {
      Path failed = new Path(dir);
      failed.getFileSystem(conf.get()).delete(failed, true); // nobody will import it
      throw e;
    }
    return name;
  }

  /** A group's files as a tree for the packer. */
  private record GroupTree(List<ListedFile> files, HadoopConf conf) implements SourceTree {
    @Override
    public String describe() {
      return files.isEmpty() ? "no files" : files.get(0).path() + " and others";
    }

    @Override
    public void walk(
        String prefix,
        Packer.Options options,
        List<String> skipped,
        Consumer<SourceFile> sink,
        BooleanSupplier stop) {
      for (ListedFile f : files) {
        if (stop.getAsBoolean()) {
          return;
        }
        sink.accept(f.source(conf.get()));
      }
    }
  }
}
