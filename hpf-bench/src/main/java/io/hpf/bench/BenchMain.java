package io.hpf.bench;

import io.hpf.bench.paper.PaperSuite;
import io.hpf.bench.paper.Scale;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.StorageLocator;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "hpf bench",
    description = {
      "Runs the paper suite: the datasets of the HPF, SFMapReduce and TýrFS papers (hpf-logs,",
      "sf-text-30k, sf-text-1m, tyr-32k, and the kernel tree if installed) stored by hpf, plain",
      "files, SequenceFile (record and block compression), MapFile and HAR on one file system;",
      "creation time, size, NameNode objects, warm and cold random gets (uniform and Zipf, 10%%",
      "misses), full scans, and the HFile paper's catalog measurements. One JSON line per",
      "measurement; scripts/bench-report.py makes the tables and plots of docs/BENCHMARKS.md."
    },
    footer = {
      "",
      "Scales: smoke (seconds), ci (minutes; the test suite runs it), bench (what",
      "docs/BENCHMARKS.md reports), paper (the papers' sizes: hours).",
      "",
      "Examples:",
      "  hpf bench --suite paper --fs file:///tmp/b --scale ci",
      "  hpf bench --suite paper --fs $(hpf hdfs status --uri)/b --scale bench",
      "  hpf bench scale --entries 10000000     # 10M entries in one archive"
    },
    subcommands = io.hpf.bench.scale.ScaleCommand.class,
    mixinStandardHelpOptions = true)
public final class BenchMain implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "-D",
      paramLabel = "KEY=VALUE",
      description = "A Hadoop setting (repeatable), over $HADOOP_CONF_DIR.")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(
      names = "--suite",
      paramLabel = "NAME",
      defaultValue = "paper",
      description = "The suite (default: ${DEFAULT-VALUE}; the only one so far).")
  String suite;

  @Option(
      names = "--fs",
      paramLabel = "URI",
      description = "Where to store: file:///DIR or hdfs://HOST:PORT/DIR (emptied first).")
  String fs;

  @Option(
      names = "--scale",
      paramLabel = "SCALE",
      defaultValue = "smoke",
      description = "smoke, ci, bench or paper (default: ${DEFAULT-VALUE}).")
  String scale;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "JSON lines appended here (default: bench-results/paper-SCALE-FS.jsonl).")
  Path outFile;

  @Option(
      names = "--work",
      paramLabel = "DIR",
      description = "Local scratch space for staged datasets (default: a new temporary directory).")
  Path work;

  @Option(
      names = "--kernel",
      paramLabel = "DIR",
      defaultValue = "bench-data/linux-source-6.1",
      description = "The kernel tree (scripts/install-corpora.sh); skipped if absent.")
  Path kernel;

  @Override
  public Integer call() throws Exception {
    if (!suite.equals("paper")) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "unknown suite '" + suite + "': the only suite is 'paper'");
    }
    if (fs == null) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "the paper suite needs --fs URI (or: hpf bench scale --entries N)");
    }
    Scale parsed = Scale.parse(scale);
    URI uri = URI.create(fs);
    if (uri.getScheme() == null) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--fs needs a URI with a scheme (file:///tmp/b), not '" + fs + "'");
    }
    Path out =
        outFile != null
            ? outFile
            : Path.of(
                "bench-results", "paper-" + parsed.label() + "-" + uri.getScheme() + ".jsonl");
    Path scratch = work != null ? work : Files.createTempDirectory("hpf-bench");
    String command = "hpf bench --suite paper --fs " + fs + " --scale " + parsed.label();
    new PaperSuite(
            uri,
            new StorageLocator(properties, HadoopStorageOptions.DEFAULTS).configuration(),
            parsed,
            scratch,
            kernel,
            new BenchOutput(out, command),
            System.err)
        .run();
    spec.commandLine().getOut().println("results in " + out);
    return 0;
  }

  /**
   * The benchmarks' own entry point: {@code hpf bench ...} runs it (the launcher delegates), so
   * that the hpf command never carries the benchmarks' HAR tool and MapReduce client.
   */
  public static void main(String[] args) {
    picocli.CommandLine cli = new picocli.CommandLine(new BenchMain());
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine.getErr().println("hpf bench: " + e.getMessage());
          if (System.getenv("HPF_DEBUG") != null) {
            e.printStackTrace(commandLine.getErr());
          }
          return 1;
        });
    System.exit(cli.execute(args));
  }
}
