package io.hpf.cli;

import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.StorageLocator;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hpf fs}: Hadoop's own shell ({@code hadoop fs}) with hpf's jars and the configuration hpf
 * uses ({@code $HADOOP_CONF_DIR}, then {@code -D}), so that the {@code hpf://} file system and any
 * other one hpf reads can be listed, read and copied from without a Hadoop installation. Its
 * arguments are the shell's, unparsed; {@code hpf fs -help} is the shell's help.
 */
@Command(
    name = "fs",
    description = {
      "Runs Hadoop's file system shell (hadoop fs) with hpf's jars, so hpf:// paths inside",
      "archives can be listed, read and copied without a Hadoop installation. Arguments are the",
      "shell's own (hpf fs -help lists them); settings come from $HADOOP_CONF_DIR and -D."
    },
    footer = {
      "",
      "Examples:",
      "  hpf fs -ls -R hpf://hdfs-127.0.0.1:9000/data/logs.hpf/2024/",
      "  hpf fs -cat hpf://file-/data/photos.hpf/2024/01/meta.csv",
      "  hpf fs -get hpf://hdfs-127.0.0.1:9000/data/logs.hpf/2024/01 /tmp/jan"
    })
final class FsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  private final OutputStream stdout;
  private final OutputStream stderr;

  @Parameters(arity = "0..*", paramLabel = "ARGS")
  List<String> args = List.of();

  FsCommand(OutputStream stdout, OutputStream stderr) {
    this.stdout = stdout;
    this.stderr = stderr;
  }

  @Override
  public Integer call() throws Exception {
    if (args.isEmpty() || args.equals(List.of("--help")) || args.equals(List.of("-h"))) {
      // The shell's arguments are its own, but hpf's help flags are hpf's: this command's usage.
      spec.commandLine().usage(spec.commandLine().getOut());
      return args.isEmpty() ? Main.EXIT_USAGE : Main.EXIT_OK;
    }
    // The shell prints through System.out and System.err; its output goes where hpf's does,
    // and an output that cannot be written fails the command as hpf's own output would.
    PrintStream out = new PrintStream(stdout, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    PrintStream savedOut = System.out;
    PrintStream savedErr = System.err;
    System.setOut(out);
    System.setErr(err);
    int code;
    try {
      FsShell shell =
          new FsShell(new StorageLocator(Map.of(), HadoopStorageOptions.DEFAULTS).configuration());
      try {
        code = ToolRunner.run(shell, args.toArray(String[]::new));
      } finally {
        shell.close();
      }
      out.flush();
    } finally {
      System.setOut(savedOut);
      System.setErr(savedErr);
      err.flush();
    }
    if (out.checkError()) {
      stdout.flush(); // throws the write error, naming standard output
    }
    return code == 0 ? Main.EXIT_OK : Main.EXIT_FAILED;
  }
}
