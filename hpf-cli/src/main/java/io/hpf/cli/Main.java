package io.hpf.cli;

import io.hpf.archive.ArchiveFormat;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code hpf} command. Exit codes: 0 success, 1 not found / verify failed / any error while
 * working, 2 usage error. Errors print one line naming what went wrong, without a stack trace (set
 * HPF_DEBUG=1 for one).
 */
@Command(
    name = "hpf",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Archives for massive numbers of small files: pack, read by name, verify.",
    footer = {
      "",
      "Examples:",
      "  hpf create photos.hpf /data/photos",
      "  hpf ls photos.hpf 2024/",
      "  hpf cat photos.hpf 2024/01/cat.jpg > cat.jpg",
      "  hpf verify photos.hpf"
    })
public final class Main implements Runnable {
  /**
   * The subcommands by name, in the order help lists them. A command line builds the model of the
   * one it runs only: picocli reads a command's annotations by reflection, and reading all of them
   * costs more than most commands' work (help, a typo or no command at all get them all).
   */
  private static final java.util.Map<String, Class<?>> COMMANDS = new java.util.LinkedHashMap<>();

  static {
    COMMANDS.put("create", CreateCommand.class);
    COMMANDS.put("add", AddCommand.class);
    COMMANDS.put("rm", RmCommand.class);
    COMMANDS.put("compact", CompactCommand.class);
    COMMANDS.put("recover", RecoverCommand.class);
    COMMANDS.put("log", LogCommand.class);
    COMMANDS.put("ls", LsCommand.class);
    COMMANDS.put("cat", CatCommand.class);
    COMMANDS.put("get", GetCommand.class);
    COMMANDS.put("extract", ExtractCommand.class);
    COMMANDS.put("info", InfoCommand.class);
    COMMANDS.put("verify", VerifyCommand.class);
    COMMANDS.put("analyze", AnalyzeCommand.class);
    COMMANDS.put("cache", CacheCommand.class);
    COMMANDS.put("hdfs", HdfsCommand.class);
    COMMANDS.put("fs", FsCommand.class);
    COMMANDS.put("serve", ProgramCommand.Serve.class);
    COMMANDS.put("mount", ProgramCommand.Mount.class);
    COMMANDS.put("umount", ProgramCommand.Umount.class);
    COMMANDS.put("mapreduce", ProgramCommand.MapReduce.class);
    COMMANDS.put("spark-pack", ProgramCommand.SparkPack.class);
    COMMANDS.put("bench", ProgramCommand.Bench.class);
    COMMANDS.put("classpath", ClasspathCommand.class);
    COMMANDS.put("help", CommandLine.HelpCommand.class);
  }

  /** Commands whose arguments, {@code --help} included, belong to another program. */
  private static final java.util.Set<String> PASSED_ON =
      java.util.Set.of("fs", "serve", "mount", "umount", "mapreduce", "spark-pack", "bench");

  public static final int EXIT_OK = 0;
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
  }

  /** Exit code of a command whose output pipe was closed by its reader, as if killed by SIGPIPE. */
  public static final int EXIT_BROKEN_PIPE = 141;

  public static void main(String[] args) {
    // picocli looks for Groovy's Closure class when its factory loads (for Groovy scripts'
    // annotations): a miss searched every jar of the class path, 45 ms of every command.
    if (System.getProperty("picocli.disable.closures") == null) {
      System.setProperty("picocli.disable.closures", "true");
    }
    // Not System.out: a PrintStream swallows write errors, and output to a full disk would end
    // in success.
    OutputStream stdout =
        new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    System.exit(run(args, stdout, System.err));
  }

  /**
   * Runs a command line with the given outputs; returns the exit code. For tests too. Text goes
   * through UTF-8 writers; {@code cat} writes entry bytes to {@code stdout} unchanged. Output that
   * cannot be written fails the command (exit 1, naming standard output), whatever it did.
   */
  public static int run(String[] args, OutputStream stdout, OutputStream stderr) {
    OutputTarget target = new OutputTarget(stdout, "standard output");
    PrintWriter out = new PrintWriter(new OutputStreamWriter(target, StandardCharsets.UTF_8), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(stderr, StandardCharsets.UTF_8), true);
    CatCommand plainCat = CatCommand.ofPlainLine(args, target);
    int code =
        plainCat != null ? runDirectly(plainCat, err) : runParsed(args, target, stderr, out, err);
    out.flush();
    IOException lost = target.failure();
    if (lost != null && OutputTarget.isBrokenPipe(lost)) {
      code = EXIT_BROKEN_PIPE;
    } else if (lost != null && code == EXIT_OK) { // a command that failed said why already
      err.println("hpf: " + lost.getMessage());
      code = EXIT_FAILED;
    }
    err.flush();
    return code;
  }

  /** Runs a command set up without picocli, with the errors picocli's handlers would print. */
  private static int runDirectly(java.util.concurrent.Callable<Integer> command, PrintWriter err) {
    try {
      return command.call();
    } catch (Exception | OutOfMemoryError | StackOverflowError e) {
      return failed(e, err);
    }
  }

  /** A failure in one line of our words (a stack trace too with HPF_DEBUG set): exit code 1. */
  private static int failed(Throwable e, PrintWriter err) {
    Throwable cause = ErrorMessages.unwrap(e);
    if (cause instanceof IOException io && OutputTarget.isBrokenPipe(io)) {
      return EXIT_BROKEN_PIPE; // the reader stopped reading: nothing to tell it
    }
    err.println("hpf: " + ErrorMessages.describe(e));
    if (System.getenv("HPF_DEBUG") != null) {
      e.printStackTrace(err);
    }
    err.flush();
    return EXIT_FAILED;
  }

  private static int runParsed(
      String[] args, OutputStream stdout, OutputStream stderr, PrintWriter out, PrintWriter err) {
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine cli =
        new CommandLine(
            new Main(),
            new CommandLine.IFactory() {
              @Override
              public <K> K create(Class<K> type) throws Exception {
                if (type == CatCommand.class) {
                  return type.cast(new CatCommand(stdout));
                }
                return type == FsCommand.class
                    ? type.cast(new FsCommand(stdout, stderr))
                    : defaults.create(type);
              }
            });
    String first = args.length > 0 ? args[0] : "";
    if (COMMANDS.containsKey(first) && !first.equals("help")) {
      cli.addSubcommand(first, COMMANDS.get(first));
    } else {
      COMMANDS.forEach(cli::addSubcommand);
    }
    if (PASSED_ON.contains(first)) { // the program's own options and arguments, unparsed
      cli.getSubcommands().get(first).setUnmatchedOptionsArePositionalParams(true);
    }
    HelpText.tidy(cli);
    cli.setOut(out);
    cli.setErr(err);
    cli.setExitCodeExceptionMapper(e -> EXIT_FAILED);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> failed(e, commandLine.getErr()));
    cli.setParameterExceptionHandler(
        (e, a) -> {
          CommandLine c = e.getCommandLine();
          c.getErr().println("hpf: " + e.getMessage());
          c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
          c.getErr().flush();
          return EXIT_USAGE;
        });
    try {
      return cli.execute(args);
    } catch (OutOfMemoryError
        | StackOverflowError e) { // picocli passes on what is not an Exception
      return failed(e, err);
    }
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {
        "hpf "
            + (v == null ? "development build" : v)
            + ", format version "
            + ArchiveFormat.VERSION_CURRENT
      };
    }
  }
}
