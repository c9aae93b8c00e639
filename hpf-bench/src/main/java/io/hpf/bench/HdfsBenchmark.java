package io.hpf.bench;

import io.hpf.archive.ArchiveReader;
import io.hpf.hadoop.ArchiveCosts;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.NameNodeCost;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * hpf against plain files and HAR on a real HDFS (NameNode and DataNode processes, as {@code hpf
 * hdfs start} runs them), for one local directory of small files:
 *
 * <ul>
 *   <li>creation: {@code hdfs dfs -put} of the directory (Hadoop's FsShell, in its own JVM as the
 *       {@code hdfs} script runs it) against {@code hpf create hdfs://... DIR} (through the {@code
 *       ./hpf} launcher), alternating, several repetitions; and HAR creation (the HadoopArchives
 *       tool with MapReduce's local job runner) over the uploaded files;
 *   <li>NameNode objects (files, directories, blocks) of each, as the NameNode reports them;
 *   <li>random gets (uniform names): hpf warm (one reader), hpf cold (a new reader per get), plain
 *       files (open, read, close per get, as a client of plain files does) and HAR through har://.
 * </ul>
 *
 * <p>Usage: {@code HdfsBenchmark OUT.jsonl HDFS_URI HPF_LAUNCHER NAME LOCAL_DIR REPETITIONS GETS}
 * with HADOOP_CONF_DIR set to the cluster's configuration.
 */
public final class HdfsBenchmark {
  private HdfsBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchArgs flags =
        BenchArgs.parse(
            "HdfsBenchmark",
            args,
            "out",
            "hdfs",
            "launcher",
            "name",
            "tree",
            "repetitions",
            "gets");
    BenchOutput out = new BenchOutput(flags.path("out"), flags.commandLine());
    URI hdfs = URI.create(flags.string("hdfs"));
    String launcher = flags.string("launcher", "./hpf");
    String name = flags.string("name");
    Path local = flags.path("tree");
    int repetitions = flags.integer("repetitions");
    int gets = flags.integer("gets");
    List<String> names = listNames(local);
    long bytes = 0;
    for (String n : names) {
      bytes += Files.size(local.resolve(n));
    }
    Configuration conf = new Configuration();
    String confDir = System.getenv("HADOOP_CONF_DIR");
    conf.addResource(new org.apache.hadoop.fs.Path(Path.of(confDir, "core-site.xml").toUri()));
    conf.addResource(new org.apache.hadoop.fs.Path(Path.of(confDir, "hdfs-site.xml").toUri()));
    FileSystem fs = FileSystem.newInstance(hdfs, conf);
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path("/bench/" + name);
    fs.delete(root, true);
    fs.mkdirs(root);
    Map<String, Object> base = new LinkedHashMap<>();
    base.put("dataset", name);
    base.put("files", names.size());
    base.put("bytes", bytes);

    creation(out, base, hdfs, root, launcher, local, names.size(), repetitions);
    harJob(out, base, root, name, names.size());
    nameNodeObjects(out, base, fs, root, name);
    gets(out, base, fs, hdfs, root, name, names, gets);
    fs.close();
  }

  /** {@code hdfs dfs -put} against {@code hpf create}, alternating which goes first. */
  private static void creation(
      BenchOutput out,
      Map<String, Object> base,
      URI hdfs,
      org.apache.hadoop.fs.Path root,
      String launcher,
      Path local,
      int files,
      int repetitions)
      throws Exception {
    for (int rep = 1; rep <= repetitions; rep++) {
      String plain = root + "/plain-" + rep;
      String archive = hdfs + root.toString() + "/hpf-" + rep + ".hpf";
      List<String[]> order = new ArrayList<>();
      order.add(new String[] {"hdfs-dfs-put", plain});
      order.add(new String[] {"hpf-create", archive});
      if (rep % 2 == 0) {
        java.util.Collections.reverse(order);
      }
      for (String[] system : order) {
        List<String> command =
            system[0].equals("hpf-create")
                ? List.of(launcher, "create", system[1], local.toString())
                : javaCommand("org.apache.hadoop.fs.FsShell", "-put", local.toString(), system[1]);
        double seconds = run(command);
        Map<String, Object> m = new LinkedHashMap<>(base);
        m.put("benchmark", "hdfs-create");
        m.put("system", system[0]);
        m.put("repetition", rep);
        m.put("seconds", seconds);
        m.put("filesPerSecond", files / seconds);
        m.put("exactCommand", String.join(" ", command));
        out.write(m);
      }
    }
  }

  /** HAR over the first upload: the archive job alone (its upload is hdfs-dfs-put above). */
  private static void harJob(
      BenchOutput out,
      Map<String, Object> base,
      org.apache.hadoop.fs.Path root,
      String name,
      int files)
      throws Exception {
    List<String> har =
        javaCommand(
            "org.apache.hadoop.tools.HadoopArchives",
            "-D",
            "mapreduce.framework.name=local",
            "-archiveName",
            name + ".har",
            "-p",
            root.toString(),
            "plain-1",
            root + "/har");
    double harSeconds = run(har);
    Map<String, Object> hm = new LinkedHashMap<>(base);
    hm.put("benchmark", "hdfs-create");
    hm.put("system", "har-archive-job");
    hm.put("repetition", 1);
    hm.put("seconds", harSeconds);
    hm.put("filesPerSecond", files / harSeconds);
    hm.put("exactCommand", String.join(" ", har));
    out.write(hm);
  }

  /** NameNode objects of each way of storing the dataset, as the NameNode reports them. */
  private static void nameNodeObjects(
      BenchOutput out,
      Map<String, Object> base,
      FileSystem fs,
      org.apache.hadoop.fs.Path root,
      String name)
      throws IOException {
    Map<String, org.apache.hadoop.fs.Path> stored = new LinkedHashMap<>();
    stored.put("plain", new org.apache.hadoop.fs.Path(root, "plain-1"));
    stored.put("har", new org.apache.hadoop.fs.Path(root, "har/" + name + ".har"));
    stored.put("hpf", new org.apache.hadoop.fs.Path(root, "hpf-1.hpf"));
    for (Map.Entry<String, org.apache.hadoop.fs.Path> e : stored.entrySet()) {
      NameNodeCost cost = ArchiveCosts.counted(fs, e.getValue());
      Map<String, Object> m = new LinkedHashMap<>(base);
      m.put("benchmark", "hdfs-namenode-objects");
      m.put("system", e.getKey());
      m.put("nnFiles", cost.files());
      m.put("nnDirectories", cost.directories());
      m.put("nnBlocks", cost.blocks());
      m.put("nnObjects", cost.objects());
      m.put("nnHeapBytesModel", cost.heapBytes());
      m.put("bytesStored", fs.getContentSummary(e.getValue()).getLength());
      out.write(m);
    }
  }

  /**
   * Microseconds per get of each system in each round: the same random sample for all in a round,
   * the order rotated from round to round.
   */
  private static Map<String, double[]> measure(
      Map<String, GetBenchmark.Getter> systems, List<String> names, int gets, int rounds)
      throws Exception {
    SplittableRandom random = new SplittableRandom(42);
    Map<String, double[]> micros = new LinkedHashMap<>();
    systems.keySet().forEach(s -> micros.put(s, new double[rounds]));
    for (int round = 0; round < rounds; round++) {
      List<String> sample = new ArrayList<>();
      for (int i = 0; i < gets; i++) {
        sample.add(names.get(random.nextInt(names.size())));
      }
      List<String> order = new ArrayList<>(systems.keySet());
      java.util.Collections.rotate(order, round);
      for (String system : order) {
        // Cold gets open an archive each: a tenth as many keeps a round short.
        int count = system.equals("hpf-cold") ? Math.max(1, gets / 10) : gets;
        long checksum = 0;
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
          checksum += systems.get(system).get(sample.get(i)).length;
        }
        double perGet = (System.nanoTime() - start) / 1e3 / count;
        if (checksum < 0) {
          throw new IllegalStateException();
        }
        micros.get(system)[round] = perGet;
      }
    }
    return micros;
  }

  private static void gets(
      BenchOutput out,
      Map<String, Object> base,
      FileSystem fs,
      URI hdfs,
      org.apache.hadoop.fs.Path root,
      String name,
      List<String> names,
      int gets)
      throws Exception {
    org.apache.hadoop.fs.Path plain = new org.apache.hadoop.fs.Path(root, "plain-1");
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(root, "hpf-1.hpf");
    URI harUri =
        URI.create(
            "har://hdfs-"
                + hdfs.getHost()
                + ":"
                + hdfs.getPort()
                + root
                + "/har/"
                + name
                + ".har/plain-1");
    FileSystem harFs = FileSystem.newInstance(harUri, fs.getConf());
    HadoopStorage storage = HadoopStorage.open(fs, archive, HadoopStorageOptions.DEFAULTS, false);
    ArchiveReader warm = ArchiveReader.open(storage);
    byte[] buffer = new byte[1 << 20];
    Map<String, GetBenchmark.Getter> systems = new LinkedHashMap<>();
    systems.put("hpf-warm", warm::get);
    systems.put(
        "hpf-cold",
        n -> {
          try (ArchiveReader reader = ArchiveReader.open(storage)) {
            return reader.get(n);
          }
        });
    systems.put(
        "plain-open-read-close",
        n -> readWhole(fs, new org.apache.hadoop.fs.Path(plain, n), buffer));
    systems.put(
        "har-open-read-close",
        n -> readWhole(harFs, new org.apache.hadoop.fs.Path(harUri.toString() + "/" + n), buffer));
    int rounds = 5;
    Map<String, double[]> micros = measure(systems, names, gets, rounds);
    for (Map.Entry<String, double[]> e : micros.entrySet()) {
      Map<String, Object> m = new LinkedHashMap<>(base);
      m.put("benchmark", "hdfs-get");
      m.put("system", e.getKey());
      m.put("rounds", rounds);
      m.put("getsPerRound", e.getKey().equals("hpf-cold") ? Math.max(1, gets / 10) : gets);
      // The first round warms caches and the JIT; the median is over all rounds.
      m.put("microsPerGetMedian", Stats.median(e.getValue()));
      m.put("microsPerGetRounds", java.util.Arrays.toString(e.getValue()));
      out.write(m);
    }
    warm.close();
    harFs.close();
  }

  private static byte[] readWhole(FileSystem fs, org.apache.hadoop.fs.Path path, byte[] buffer)
      throws IOException {
    try (FSDataInputStream in = fs.open(path)) {
      int n = in.readNBytes(buffer, 0, buffer.length);
      return java.util.Arrays.copyOf(buffer, n);
    }
  }

  private static List<String> listNames(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      files.filter(Files::isRegularFile).forEach(p -> names.add(dir.relativize(p).toString()));
    }
    java.util.Collections.sort(names);
    return names;
  }

  /** A JVM with this benchmark's classpath and default flags, as Hadoop's scripts start one. */
  private static List<String> javaCommand(String mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getenv("HADOOP_CONF_DIR") + ":" + System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(List.of(args));
    return command;
  }

  private static double run(List<String> command) throws IOException, InterruptedException {
    long start = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(
                ProcessBuilder.Redirect.appendTo(Path.of("/tmp/hpf-hdfs-bench.log").toFile()))
            .start();
    int code = process.waitFor();
    double seconds = (System.nanoTime() - start) / 1e9;
    if (code != 0) {
      throw new IOException(
          "exit " + code + " from " + String.join(" ", command) + "; see /tmp/hpf-hdfs-bench.log");
    }
    return seconds;
  }
}
