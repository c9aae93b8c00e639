package io.hpf.spark.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.HadoopSourceTree;
import io.hpf.hadoop.HdfsSettings;
import io.hpf.pack.Packer;
import io.hpf.spark.pack.SparkPack;
import io.hpf.spark.pack.SparkPackOptions;
import io.hpf.spark.pack.SparkPackResult;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;

/**
 * Issue 11's Spark benchmark on a real HDFS ({@code hpf hdfs}), Spark {@code local[2]}: the same
 * files as plain files and as an archive, read four ways ({@link Peers}) for four questions (total
 * bytes, a WordCount, a count by prefix, 1,000 lookups by name), each repeated; then packing the
 * tree with {@code hpf spark-pack} against {@code hpf create} from one client. One JSON line per
 * measurement; the answers of the four ways are checked against each other.
 *
 * <p>Usage: {@code SparkBenchmark OUT.jsonl HDFS-URI CORPUS FILES REPETITIONS [SYSTEMS]} with
 * CORPUS {@code logs} or a kernel source directory, SYSTEMS a comma-separated subset of {@code
 * hpf,binaryFile,wholeTextFiles,sc.binaryFiles} (default all; hpf always runs, first).
 */
public final class SparkBenchmark {
  /** The questions each way of reading answers. */
  private enum Query {
    BYTES("bytes"),
    WORDCOUNT("wordcount"),
    COUNT_PREFIX("count-prefix"),
    LOOKUP("lookup-1000"),
    /** hpf alone: the same lookups read by tasks (past the driver's budget) instead. */
    LOOKUP_BY_TASKS("lookup-1000-tasks"),
    /**
     * Spark's floor: the same lookups in a table Spark holds in memory (cached, no I/O), what any
     * source's lookup costs at least.
     */
    LOOKUP_IN_MEMORY("lookup-1000-in-memory");

    final String label;

    Query(String label) {
      this.label = label;
    }
  }

  private final Path out;
  private final Map<String, Object> context = new LinkedHashMap<>();
  private final ObjectMapper json = new ObjectMapper();

  private SparkBenchmark(Path out, String command) {
    this.out = out;
    context.put("command", command);
    context.put("machine", machine());
    context.put("cores", Runtime.getRuntime().availableProcessors());
    context.put(
        "jdk",
        java.lang.System.getProperty("java.vm.name")
            + " "
            + java.lang.System.getProperty("java.version"));
    context.put("spark", org.apache.spark.package$.MODULE$.SPARK_VERSION());
    context.put("commit", java.lang.System.getenv().getOrDefault("HPF_COMMIT", "unknown"));
    context.put("time", java.time.Instant.now().toString());
  }

  private static String machine() {
    try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst()
          .orElse(java.lang.System.getProperty("os.arch"));
    } catch (IOException e) {
      return java.lang.System.getProperty("os.arch");
    }
  }

  private void record(Map<String, Object> measurement) throws IOException {
    Map<String, Object> all = new LinkedHashMap<>(measurement);
    all.putAll(context);
    String line = json.writeValueAsString(all) + "\n";
    Files.writeString(
        out, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    java.lang.System.out.print(line);
  }

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    URI hdfs = URI.create(args[1]);
    int files = Integer.parseInt(args[3]);
    int repetitions = Integer.parseInt(args[4]);
    List<Peers.System> systems = new ArrayList<>();
    for (Peers.System system : Peers.System.values()) {
      if (args.length < 6
          || system == Peers.System.HPF
          || List.of(args[5].split(",")).contains(system.label)) {
        systems.add(system);
      }
    }
    Corpus corpus =
        args[2].equals("logs") ? Corpus.logs(files) : Corpus.kernel(Path.of(args[2]), files);
    Files.createDirectories(out.toAbsolutePath().getParent());
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("hpf spark benchmark")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            // sc.binaryFiles combines files into splits of up to this many bytes and deserializes
            // the split once per file: quadratic in files per split (at the default 128 MB, one
            // split of 10,000 files took over six minutes). It touches no other reader here.
            .config("spark.files.maxPartitionBytes", String.valueOf(4 << 20))
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    HdfsSettings.applyFastClose(spark.sparkContext().hadoopConfiguration());
    SparkBenchmark bench = new SparkBenchmark(out, "SparkBenchmark " + String.join(" ", args));
    try {
      bench.run(
          spark,
          FileSystem.get(hdfs, spark.sparkContext().hadoopConfiguration()),
          corpus,
          repetitions,
          systems);
    } finally {
      spark.stop();
    }
  }

  private void run(
      SparkSession spark, FileSystem fs, Corpus corpus, int repetitions, List<Peers.System> systems)
      throws Exception {
    int n = corpus.names().size();
    org.apache.hadoop.fs.Path base =
        fs.makeQualified(
            new org.apache.hadoop.fs.Path("/bench-spark/" + corpus.description() + "-" + n));
    org.apache.hadoop.fs.Path plain = new org.apache.hadoop.fs.Path(base, "plain");
    if (!fs.exists(new org.apache.hadoop.fs.Path(base, "plain.done"))) {
      upload(fs, plain, corpus);
      fs.create(new org.apache.hadoop.fs.Path(base, "plain.done")).close();
    }
    Map<String, Object> common = new LinkedHashMap<>();
    common.put("corpus", corpus.description());
    common.put("files", n);

    // Packing: hpf create from one client, then spark-pack; the latter's archive is queried.
    org.apache.hadoop.fs.Path created = new org.apache.hadoop.fs.Path(base, "created.hpf");
    org.apache.hadoop.fs.Path packed = new org.apache.hadoop.fs.Path(base, "packed.hpf");
    fs.delete(created, true);
    fs.delete(packed, true);
    long start = java.lang.System.nanoTime();
    try (Storage storage = HadoopArchives.create(created.toUri(), fs.getConf())) {
      Packer.pack(
          HadoopSourceTree.of(fs, plain),
          storage,
          WriterOptions.builder().codec(Codec.ZSTD).build(),
          new Packer.Options(2, false, false, true),
          ProgressListener.NONE);
    }
    double createSeconds = (java.lang.System.nanoTime() - start) / 1e9;
    Map<String, Object> m = new LinkedHashMap<>(common);
    m.put("benchmark", "spark-pack");
    m.put("system", "hpf create (one client, 2 threads)");
    m.put("seconds", createSeconds);
    m.put("files_per_second_per_core", n / createSeconds / 2);
    record(m);
    SparkPackResult pack =
        SparkPack.run(
            spark,
            plain.toString(),
            packed.toString(),
            new SparkPackOptions(
                io.hpf.archive.PackingRequest.codec(Codec.ZSTD), true, 1, 256L << 20, 100_000));
    m = new LinkedHashMap<>(common);
    m.put("benchmark", "spark-pack");
    m.put("system", "hpf spark-pack (local[2], 1 thread a task)");
    m.put("seconds", pack.seconds());
    m.put("files_per_second_per_core", n / pack.seconds() / 2);
    m.put("list_tasks", pack.listTasks());
    m.put("pack_tasks", pack.packTasks());
    record(m);

    Peers peers = new Peers(spark, packed.toString(), plain.toString(), n);
    List<String> names = sample(corpus.names(), 1000);
    String prefix = prefix(corpus.names());
    for (int rep = 1; rep <= repetitions; rep++) {
      for (Query query : Query.values()) {
        Long expected = null;
        for (Peers.System system : systems) {
          boolean hpfOnly = query == Query.LOOKUP_BY_TASKS || query == Query.LOOKUP_IN_MEMORY;
          if (hpfOnly && system != Peers.System.HPF) {
            continue;
          }
          start = java.lang.System.nanoTime();
          long answer =
              switch (query) {
                case BYTES -> peers.bytes(system);
                case WORDCOUNT -> peers.wordCount(system);
                case COUNT_PREFIX -> peers.countPrefix(system, prefix);
                case LOOKUP -> peers.lookup(system, names);
                case LOOKUP_BY_TASKS -> peers.lookupByTasks(names);
                case LOOKUP_IN_MEMORY -> peers.lookupInMemory(names);
              };
          double seconds = (java.lang.System.nanoTime() - start) / 1e9;
          // wholeTextFiles decodes text: its byte counts differ on files that are not UTF-8.
          boolean comparable =
              system != Peers.System.WHOLE_TEXT_FILES || query == Query.COUNT_PREFIX;
          if (expected == null) {
            expected = answer;
          } else if (comparable && answer != expected) {
            throw new IllegalStateException(
                query + ": " + system.label + " answered " + answer + ", hpf " + expected);
          }
          m = new LinkedHashMap<>(common);
          m.put("benchmark", "spark-" + query.label);
          m.put("system", system.label);
          m.put("repetition", rep);
          m.put("seconds", seconds);
          m.put("answer", answer);
          record(m);
        }
      }
    }
  }

  /** {@code count} names spread over the list (deterministic). */
  private static List<String> sample(List<String> names, int count) {
    SplittableRandom random = new SplittableRandom(1);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(names.get(random.nextInt(names.size())));
    }
    return out.stream().distinct().toList();
  }

  /** The first component of the middle name: a prefix holding part of the tree. */
  private static String prefix(List<String> names) {
    String middle = names.get(names.size() / 2);
    int slash = middle.indexOf('/');
    return slash < 0 ? middle : middle.substring(0, slash + 1);
  }

  private static void upload(FileSystem fs, org.apache.hadoop.fs.Path plain, Corpus corpus)
      throws Exception {
    fs.delete(plain, true);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < corpus.names().size(); i++) {
        int index = i;
        writes.add(
            pool.submit(
                () -> {
                  Corpus.File f = corpus.file(index);
                  org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(plain, f.name());
                  // A close can fail on a loaded one-DataNode cluster ("not enough replicas"
                  // when the last block's report is late): write the file again.
                  for (int attempt = 1; ; attempt++) {
                    try (FSDataOutputStream o = fs.create(path, true)) {
                      o.write(f.bytes());
                      return null;
                    } catch (IOException e) {
                      if (attempt == 5) {
                        throw e;
                      }
                      Thread.sleep(200L * attempt);
                    }
                  }
                }));
      }
      for (Future<?> w : writes) {
        w.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}
