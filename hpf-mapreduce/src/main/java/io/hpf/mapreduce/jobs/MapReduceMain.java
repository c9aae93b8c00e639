package io.hpf.mapreduce.jobs;

import io.hpf.hadoop.EngineKeys;
import io.hpf.hadoop.SiteFiles;
import io.hpf.select.SelectorSyntaxException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * {@code hpf mapreduce}: runs WordCount, Grep or Sort over archives, writing the results into an
 * archive. Hadoop's local job runner by default; a cluster when {@code $HADOOP_CONF_DIR} or {@code
 * -D mapreduce.framework.name=yarn} says so.
 */
public final class MapReduceMain {
  static final String USAGE =
      String.join(
          "\n",
          "usage: hpf mapreduce wordcount IN.hpf... OUT.hpf [options]",
          "       hpf mapreduce grep PATTERN IN.hpf... OUT.hpf [options]",
          "       hpf mapreduce sort IN.hpf... OUT.hpf [options]",
          "Inputs are archives (globs allowed) or hpf:// paths inside one; OUT.hpf gets one entry",
          "per map task (part-m-NNNNN), or one (part-r-00000) with --reduce.",
          "options:",
          "  --select EXPR      only entries EXPR selects (docs/MAPREDUCE.md \"Selecting entries\")",
          "  --split-size MB    most megabytes of a split (default: the part files' block size, or"
              + " less, so that a small input makes at least mapreduce.job.maps splits)",
          "  --reduce           add a reduce phase: one global result",
          "  --replace          replace output entries the archive already has",
          "  -D KEY=VALUE       a Hadoop setting (e.g. mapreduce.framework.name=yarn)",
          "",
          "Examples:",
          "  hpf mapreduce wordcount hdfs://nn:9000/data/logs.hpf hdfs://nn:9000/out/wc.hpf",
          "  hpf mapreduce grep 'ERROR [0-9]+' logs.hpf errors.hpf --select 'name:2024/**'",
          "  hpf mapreduce sort 'data/*.hpf' sorted.hpf --reduce -D mapreduce.framework.name=yarn",
          "docs/MAPREDUCE.md has the jobs, the --select grammar and your own jobs.");

  private MapReduceMain() {}

  public static void main(String[] args) {
    quietLogs();
    System.exit(run(args, System.out, System.err));
  }

  /**
   * This program says what failed itself, in one line: Hadoop's job client logs nothing (its
   * warnings carry stack traces and class names) unless HPF_DEBUG is set.
   */
  private static void quietLogs() {
    java.util.Properties log = new java.util.Properties();
    boolean debug = System.getenv("HPF_DEBUG") != null;
    log.setProperty("log4j.rootLogger", debug ? "WARN, stderr" : "OFF, stderr");
    log.setProperty("log4j.appender.stderr", "org.apache.log4j.ConsoleAppender");
    log.setProperty("log4j.appender.stderr.Target", "System.err");
    log.setProperty("log4j.appender.stderr.layout", "org.apache.log4j.PatternLayout");
    log.setProperty(
        "log4j.appender.stderr.layout.ConversionPattern", "hpf mapreduce: %p %c{1}: %m%n");
    org.apache.log4j.PropertyConfigurator.configure(log);
  }

  /**
   * Why a job failed, in one line: the job's failure information, else the reason its commit failed
   * (the local job runner says "NA" for that), else the first failed task's diagnostics.
   */
  static String whyFailed(Job job) throws java.io.IOException, InterruptedException {
    String info = firstLine(job.getStatus().getFailureInfo());
    if (!info.isEmpty() && !info.equals("NA")) {
      return info;
    }
    String commit = io.hpf.mapreduce.ArchiveOutputCommitter.commitFailure(job.getJobID());
    if (commit != null) {
      return firstLine(commit);
    }
    for (org.apache.hadoop.mapreduce.TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1000)) {
      if (e.getStatus() == org.apache.hadoop.mapreduce.TaskCompletionEvent.Status.FAILED
          || e.getStatus() == org.apache.hadoop.mapreduce.TaskCompletionEvent.Status.TIPFAILED) {
        for (String diagnostics : job.getTaskDiagnostics(e.getTaskAttemptId())) {
          String line = firstLine(diagnostics);
          if (!line.isEmpty()) {
            return "task " + e.getTaskAttemptId() + ": " + line;
          }
        }
      }
    }
    return "no reason given (HPF_DEBUG=1 shows Hadoop's log)";
  }

  /** The first line of a message, without the Java class name a stack trace starts with. */
  static String firstLine(String text) {
    String line = text == null ? "" : text.lines().findFirst().orElse("").strip();
    return line.replaceFirst("^(Error: )?([a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*: ", "");
  }

  /** Runs a command line; returns the exit code (0 done, 1 the job failed, 2 usage). */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Configuration conf = configuration();
    try {
      Asked asked = Asked.parse(args, conf);
      if (asked.help()) {
        out.println(USAGE);
        return 0;
      }
      List<String> positional = new ArrayList<>(asked.words());
      if (positional.isEmpty()) {
        throw new IllegalArgumentException("which job? wordcount, grep or sort");
      }
      SfJobs.Kind kind = kind(positional.remove(0));
      String pattern =
          kind == SfJobs.Kind.GREP && !positional.isEmpty() ? positional.remove(0) : null;
      if (positional.size() < 2) {
        throw new IllegalArgumentException("give one or more input archives and an output archive");
      }
      Path output = new Path(positional.remove(positional.size() - 1));
      List<Path> inputs = positional.stream().map(Path::new).toList();
      Job job = SfJobs.build(kind, conf, inputs, output, pattern, asked.reduce());
      SfJobs.select(job, asked.select(), asked.splitBytes());
      long start = System.nanoTime();
      boolean ok = job.waitForCompletion(false);
      double seconds = (System.nanoTime() - start) / 1e9;
      if (!ok) {
        err.println("hpf mapreduce: the job failed: " + whyFailed(job));
        return 1;
      }
      long maps = job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue();
      out.printf(
          Locale.ROOT,
          "%s: %d entries read, results in %s (%.1f s)%n",
          kind.name().toLowerCase(Locale.ROOT),
          maps,
          output,
          seconds);
      return 0;
    } catch (SelectorSyntaxException e) {
      err.println("hpf mapreduce: --select: " + e.getMessage());
      return 2;
    } catch (IllegalArgumentException e) {
      err.println("hpf mapreduce: " + e.getMessage());
      err.println(USAGE);
      return 2;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("hpf mapreduce: interrupted");
      return 1;
    } catch (Exception e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      err.println("hpf mapreduce: " + message.lines().findFirst().orElse(""));
      return 1;
    }
  }

  /** What a command line asks: the job's words (job, pattern, archives) and its options. */
  private record Asked(
      List<String> words, String select, long splitBytes, boolean reduce, boolean help) {
    /** Parses {@code args}; -D settings and --replace go into {@code conf}. */
    static Asked parse(String[] args, Configuration conf) {
      List<String> words = new ArrayList<>();
      String select = null;
      long splitBytes = 0;
      boolean reduce = false;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("-h") || a.equals("--help")) {
          return new Asked(words, select, splitBytes, reduce, true);
        } else if (a.equals("--select")) {
          select = value(args, ++i, a);
        } else if (a.equals("--split-size")) {
          splitBytes = megabytes(value(args, ++i, a));
        } else if (a.equals("--reduce")) {
          reduce = true;
        } else if (a.equals("--replace")) {
          conf.setBoolean(EngineKeys.OUTPUT_REPLACE, true);
        } else if (a.equals("-D")) {
          define(conf, value(args, ++i, a));
        } else if (a.startsWith("-D") && a.length() > 2) {
          define(conf, a.substring(2));
        } else if (a.startsWith("-") && a.length() > 1) {
          throw new IllegalArgumentException("unknown option " + a);
        } else {
          words.add(a);
        }
      }
      return new Asked(words, select, splitBytes, reduce, false);
    }
  }

  private static SfJobs.Kind kind(String name) {
    for (SfJobs.Kind k : SfJobs.Kind.values()) {
      if (k.name().equalsIgnoreCase(name)) {
        return k;
      }
    }
    throw new IllegalArgumentException("no job '" + name + "': wordcount, grep or sort");
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static long megabytes(String text) {
    try {
      long mb = Long.parseLong(text);
      if (mb <= 0 || mb > (1L << 30)) {
        throw new NumberFormatException();
      }
      return mb << 20;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--split-size takes a number of megabytes, not " + text);
    }
  }

  private static void define(Configuration conf, String setting) {
    int eq = setting.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException("-D takes KEY=VALUE, not " + setting);
    }
    conf.set(setting.substring(0, eq), setting.substring(eq + 1));
  }

  /** Hadoop's defaults, then the site files of {@code $HADOOP_CONF_DIR}, as the hadoop command. */
  private static Configuration configuration() {
    Configuration conf = new Configuration();
    // The job client asks whether the job is done every 5 s by default, which a short job on the
    // local runner then waits out; a site file or -D may still set it.
    conf.setInt("mapreduce.client.completion.pollinterval", 100);
    SiteFiles.addFromEnvironment(
        conf, "core-site.xml", "hdfs-site.xml", "mapred-site.xml", "yarn-site.xml");
    return conf;
  }
}
