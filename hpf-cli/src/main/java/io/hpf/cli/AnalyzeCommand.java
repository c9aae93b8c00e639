package io.hpf.cli;

import io.hpf.archive.EntryJson;
import io.hpf.hadoop.DirectoryAnalysis;
import io.hpf.hadoop.NameNodeCost;
import io.hpf.store.LocalStorage;
import java.io.PrintWriter;
import java.net.URI;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "analyze",
    description = {
      "Counts the files, directories and blocks under a directory of any file system, says how",
      "many files are small, estimates the NameNode heap they cost (about 150 bytes per file,",
      "directory and block), and what packing the small files into one archive would save."
    },
    footer = {
      "",
      "Examples:",
      "  hpf analyze hdfs://127.0.0.1:9000/logs",
      "  hpf analyze --small-below 1 /var/log"
    },
    mixinStandardHelpOptions = true)
final class AnalyzeCommand implements Callable<Integer> {
  private static final String[] CLASS_NAMES = {
    "<= 4 KiB", "<= 64 KiB", "<= 1 MiB", "<= 16 MiB", "<= 128 MiB", "> 128 MiB"
  };

  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "DIR", description = "A local path or file system URI.")
  String directory;

  @Option(
      names = "--small-below",
      paramLabel = "MiB",
      defaultValue = "16",
      description = "A file under this many MiB is small (default: ${DEFAULT-VALUE}).")
  long smallBelowMiB;

  @Option(names = "--json", description = "One JSON object.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    URI uri =
        LocalStorage.isLocal(directory)
            ? LocalStorage.localPath(directory).toAbsolutePath().toUri()
            : URI.create(directory);
    DirectoryAnalysis a;
    try (FileSystem fs = FileSystem.newInstance(uri, storage.locator().configuration())) {
      a = DirectoryAnalysis.of(fs, new Path(uri), smallBelowMiB << 20);
    }
    NameNodeCost after = a.afterPacking();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      printJson(out, a, after);
    } else {
      printText(out, a, after);
    }
    return Main.EXIT_OK;
  }

  private static void printJson(PrintWriter out, DirectoryAnalysis a, NameNodeCost after) {
    out.printf(
        Locale.ROOT,
        "{\"root\":%s,\"files\":%d,\"directories\":%d,\"blocks\":%d,\"bytes\":%d,"
            + "\"smallFiles\":%d,\"smallBytes\":%d,\"smallBelowBytes\":%d,"
            + "\"objects\":%d,\"heapBytes\":%d,\"objectsAfterPacking\":%d,"
            + "\"heapBytesAfterPacking\":%d}%n",
        EntryJson.string(a.root().toString()),
        a.current().files(),
        a.current().directories(),
        a.current().blocks(),
        a.bytes(),
        a.smallFiles(),
        a.smallBytes(),
        a.smallThresholdBytes(),
        a.current().objects(),
        a.current().heapBytes(),
        after.objects(),
        after.heapBytes());
  }

  private static void printText(PrintWriter out, DirectoryAnalysis a, NameNodeCost after) {
    out.printf(Locale.ROOT, "directory    %s%n", a.root());
    out.printf(
        Locale.ROOT,
        "files        %d in %d directories, %s, %d blocks%n",
        a.current().files(),
        a.current().directories(),
        Format.bytes(a.bytes()),
        a.current().blocks());
    out.printf(
        Locale.ROOT,
        "small        %d files under %s (%.1f%%), %s%n",
        a.smallFiles(),
        Format.bytes(a.smallThresholdBytes()),
        a.current().files() == 0 ? 0.0 : 100.0 * a.smallFiles() / a.current().files(),
        Format.bytes(a.smallBytes()));
    out.print("sizes       ");
    for (int i = 0; i < CLASS_NAMES.length; i++) {
      out.printf(
          Locale.ROOT,
          " %s: %d%s",
          CLASS_NAMES[i],
          a.sizeHistogram()[i],
          i + 1 < CLASS_NAMES.length ? "," : "");
    }
    out.println();
    out.printf(
        Locale.ROOT,
        "namenode     %d objects, ~%s of heap (150 B per object; ~%s by the HPF paper's model)%n",
        a.current().objects(),
        Format.bytes(a.current().heapBytes()),
        Format.bytes(a.current().heapBytesHpfModel()));
    out.printf(
        Locale.ROOT,
        "if packed    the small files in one archive: %d objects, ~%s of heap (%s)%n",
        after.objects(),
        Format.bytes(after.heapBytes()),
        Format.objectRatio(a.current().objects(), after.objects()));
  }
}
