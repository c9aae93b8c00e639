package io.hpf.cli;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * A command that is a program of its own ({@link Programs}): its arguments, {@code --help}
 * included, are the program's, passed on unparsed.
 */
abstract class ProgramCommand implements Callable<Integer> {
  @Parameters(arity = "0..*", paramLabel = "ARGS", description = "The program's own arguments.")
  List<String> args = List.of();

  abstract Programs.Program program(Layout layout) throws IOException;

  @Override
  public Integer call() throws Exception {
    return Programs.run(program(Layout.ofThisCli()), args);
  }

  @Command(
      name = "serve",
      description = {
        "Serves every archive under a directory over HTTP (docs/SERVER.md): an entry in one",
        "request, listings, _mget, metrics; a ring of servers. hpf serve --help lists its options."
      },
      footer = {"", "Examples:", "  hpf serve /data/archives/ --port 8080"})
  static final class Serve extends ProgramCommand {
    @Override
    Programs.Program program(Layout layout) throws IOException {
      return Programs.serve(layout);
    }
  }

  @Command(
      name = "mount",
      description = {
        "Mounts an archive as a read-only directory tree (FUSE; docs/MOUNT.md): every program",
        "reads inside it. hpf mount --help lists its options."
      },
      footer = {"", "Examples:", "  hpf mount photos.hpf /mnt/photos", "  hpf umount /mnt/photos"})
  static final class Mount extends ProgramCommand {
    @Override
    Programs.Program program(Layout layout) throws IOException {
      return Programs.mount(layout);
    }

    /** In the background, the mount command runs in this JVM (see Programs.mountInBackground). */
    @Override
    public Integer call() throws Exception {
      Programs.Program program = program(Layout.ofThisCli());
      boolean ownProcess =
          args.stream()
              .anyMatch(
                  a ->
                      List.of("-f", "--foreground", "-h", "--help", "-V", "--version").contains(a));
      return ownProcess ? Programs.run(program, args) : Programs.mountInBackground(program, args);
    }
  }

  @Command(
      name = "umount",
      description = {"Ends a mount made by hpf mount (also one whose process has died)."},
      footer = {"", "Examples:", "  hpf umount /mnt/photos"})
  static final class Umount extends ProgramCommand {
    @Override
    Programs.Program program(Layout layout) throws IOException {
      return Programs.umount(layout);
    }
  }

  @Command(
      name = "mapreduce",
      description = {
        "Runs SFMapReduce's jobs (wordcount, grep, sort) over archives, writing the results into",
        "an archive (docs/MAPREDUCE.md). hpf mapreduce --help lists the jobs and their options."
      },
      footer = {
        "",
        "Examples:",
        "  hpf mapreduce wordcount logs.hpf wc.hpf --select 'name:2024/**'"
      })
  static final class MapReduce extends ProgramCommand {
    @Override
    Programs.Program program(Layout layout) throws IOException {
      return Programs.mapreduce(layout);
    }
  }

  @Command(
      name = "spark-pack",
      description = {
        "Packs a tree on any Hadoop file system into an archive with Spark, in local mode or on a",
        "cluster (--master; docs/SPARK.md). hpf spark-pack --help lists its options."
      },
      footer = {
        "",
        "Examples:",
        "  hpf spark-pack hdfs://nn:9000/incoming/ hdfs://nn:9000/data/in.hpf"
      })
  static final class SparkPack extends ProgramCommand {
    @Override
    Programs.Program program(Layout layout) throws IOException {
      return Programs.sparkPack(layout);
    }
  }

  @Command(
      name = "bench",
      description = {
        "Runs the benchmarks (docs/BENCHMARKS.md): the paper suite beside plain files,",
        "SequenceFile, MapFile and HAR. hpf bench --help lists them."
      },
      footer = {"", "Examples:", "  hpf bench --suite paper --fs file:///tmp/b --scale smoke"})
  static final class Bench extends ProgramCommand {
    @Override
    Programs.Program program(Layout layout) throws IOException {
      return Programs.bench(layout);
    }
  }
}
