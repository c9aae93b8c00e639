package io.hpf.spark.pack;

import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.stage.StagedImport;
import io.hpf.pack.DictionaryTrainer;
import io.hpf.pack.SourceTree.SourceFile;
import io.hpf.spark.HadoopConf;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * Packs a file tree on any Hadoop file system into a new archive with Spark tasks, as {@code hpf
 * create} does from one client: the listing is spread over tasks ({@link TreeLister}); a zstd
 * dictionary is trained once, on the driver, on a sample, and shipped to the tasks; files are
 * grouped by the host holding their first block and each group is packed by a task placed there
 * ({@link PackTask}); the driver commits every task's archive in one manifest commit ({@link
 * StagedImport}). A failed job leaves no archive behind, only nothing.
 */
public final class SparkPack {
  private SparkPack() {}

  public static SparkPackResult run(
      SparkSession spark, String source, String destination, SparkPackOptions options)
      throws IOException {
    long start = System.nanoTime();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    HadoopConf conf = HadoopConf.forSession(Map.of());
    Path destPath = new Path(destination);
    URI archive = destPath.getFileSystem(conf.get()).makeQualified(destPath).toUri();
    StagedImport staging = new StagedImport(archive, "spark-pack-" + UUID.randomUUID(), conf.get());
    if (staging.archiveExists()) {
      throw new IllegalArgumentException(destination + ": the archive exists");
    }
    int slots = Math.max(1, spark.sparkContext().defaultParallelism());

    spark.sparkContext().setJobDescription("hpf spark-pack: list " + source);
    TreeLister.Listing listing = TreeLister.list(jsc, conf, new Path(source), 4 * slots);
    List<ListedFile> files = new ArrayList<>(listing.files());
    files.sort(Comparator.comparing(ListedFile::name));
    long bytes = files.stream().mapToLong(ListedFile::size).sum();

    Codec codec;
    try (Storage destinationStorage = HadoopArchives.create(archive, conf.get())) {
      codec = options.codec(destinationStorage);
    }
    byte[] dictionary = null;
    if (codec == Codec.ZSTD && options.trainDictionary()) {
      List<SourceFile> sample = new ArrayList<>();
      for (ListedFile f : files) {
        sample.add(f.source(conf.get()));
      }
      dictionary = DictionaryTrainer.train(sample);
    }
    // At least two tasks a slot when the tree is small, so that every core packs.
    long taskBytes = Math.min(options.taskBytes(), Math.max(1, bytes / (2L * slots)));
    int taskFiles = Math.min(options.taskFiles(), Math.max(1, files.size() / (2 * slots)));
    List<PackGroup> groups = PackGroup.plan(files, taskBytes, taskFiles);

    WriterOptions archiveOptions =
        options.packing().applyTo(WriterOptions.builder()).dictionary(dictionary).build();
    staging.setup(archiveOptions);
    spark.sparkContext().setJobDescription("hpf spark-pack: pack " + files.size() + " files");
    List<String> tasks;
    try {
      tasks = packGroups(jsc, conf, staging, options, codec, dictionary, groups).collect();
    } catch (Exception e) { // SparkException too: Scala throws it undeclared
      staging.cleanup();
      throw e;
    } finally {
      spark.sparkContext().setJobDescription(null);
    }
    Generation manifest = staging.commit(tasks, archiveOptions, false);
    return new SparkPackResult(
        manifest.liveEntries(),
        bytes,
        listing.tasks(),
        groups.size(),
        dictionary == null ? 0 : dictionary.length,
        (System.nanoTime() - start) / 1e9,
        listing.skipped());
  }

  /** One task per group, placed at the group's host. */
  private static JavaRDD<String> packGroups(
      JavaSparkContext jsc,
      HadoopConf conf,
      StagedImport staging,
      SparkPackOptions options,
      Codec codec,
      byte[] dictionary,
      List<PackGroup> groups) {
    List<Tuple2<PackGroup, scala.collection.immutable.Seq<String>>> placed = new ArrayList<>();
    for (PackGroup g : groups) {
      List<String> hosts = g.host().isEmpty() ? List.of() : List.of(g.host());
      placed.add(new Tuple2<>(g, CollectionConverters.asScala(hosts).toSeq()));
    }
    ClassTag<PackGroup> tag = ClassTag$.MODULE$.apply(PackGroup.class);
    JavaRDD<PackGroup> rdd =
        new JavaRDD<>(jsc.sc().makeRDD(CollectionConverters.asScala(placed).toSeq(), tag), tag);
    return rdd.map(
        new PackTask(
            conf,
            staging.jobDir().toUri(),
            new PackingRequest(
                codec, options.packing().zstdLevel(), options.packing().solid(), null, null),
            dictionary,
            options.threads()));
  }
}
