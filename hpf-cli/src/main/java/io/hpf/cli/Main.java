package io.hpf.cli;

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
    subcommands = {
      CreateCommand.class,
      AddCommand.class,
      RmCommand.class,
      CompactCommand.class,
      RecoverCommand.class,
      LogCommand.class,
      LsCommand.class,
      CatCommand.class,
      GetCommand.class,
      ExtractCommand.class,
      InfoCommand.class,
      VerifyCommand.class,
      AnalyzeCommand.class,
      CacheCommand.class,
      HdfsCommand.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "",
      "Examples:",
      "  hpf create photos.hpf /data/photos",
      "  hpf ls photos.hpf 2024/",
      "  hpf cat photos.hpf 2024/01/cat.jpg > cat.jpg",
      "  hpf verify photos.hpf",
      "",
      "Benchmarks: hpf bench --help (their own program; the launcher runs it)."
    })
public final class Main implements Runnable {
  public static final int EXIT_OK = 0;
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs a command line with the given outputs; returns the exit code. For tests too. Text goes
   * through UTF-8 writers; {@code cat} writes entry bytes to {@code stdout} unchanged.
   */
  public static int run(String[] args, OutputStream stdout, OutputStream stderr) {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(stderr, StandardCharsets.UTF_8), true);
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine cli =
        new CommandLine(
            new Main(),
            new CommandLine.IFactory() {
              @Override
              public <K> K create(Class<K> type) throws Exception {
                return type == CatCommand.class
                    ? type.cast(new CatCommand(stdout))
                    : defaults.create(type);
              }
            });
    cli.setOut(out);
    cli.setErr(err);
    cli.setExitCodeExceptionMapper(e -> EXIT_FAILED);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine.getErr().println("hpf: " + ErrorMessages.describe(e));
          if (System.getenv("HPF_DEBUG") != null) {
            e.printStackTrace(commandLine.getErr());
          }
          commandLine.getErr().flush();
          return EXIT_FAILED;
        });
    cli.setParameterExceptionHandler(
        (e, a) -> {
          CommandLine c = e.getCommandLine();
          c.getErr().println("hpf: " + e.getMessage());
          c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
          c.getErr().flush();
          return EXIT_USAGE;
        });
    int code;
    try {
      code = cli.execute(args);
    } catch (OutOfMemoryError
        | StackOverflowError e) { // picocli passes on what is not an Exception
      err.println("hpf: " + ErrorMessages.describe(e));
      if (System.getenv("HPF_DEBUG") != null) {
        e.printStackTrace(err);
      }
      code = EXIT_FAILED;
    }
    out.flush();
    err.flush();
    return code;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {
        "hpf "
            + (v == null ? "development build" : v)
            + ", format version "
            + io.hpf.format.FormatConstants.VERSION_CURRENT
      };
    }
  }
}
