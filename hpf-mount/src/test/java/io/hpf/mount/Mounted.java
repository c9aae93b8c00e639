package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A mount made as {@code hpf mount} makes it: {@link MountMain} run in a JVM of its own, which
 * starts the serving process in the background and returns once the kernel lists the mount.
 */
final class Mounted implements AutoCloseable {
  final Path dir;
  final Path log;

  private Mounted(Path dir, Path log) {
    this.dir = dir;
    this.log = log;
  }

  /** Skips the calling test, saying why, where this machine cannot mount FUSE file systems. */
  static void assumeFuse() {
    boolean device = Files.exists(Path.of("/dev/fuse"));
    boolean library =
        Files.exists(Path.of("/lib/x86_64-linux-gnu/libfuse3.so.3"))
            || Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libfuse3.so.3"))
            || Files.exists(Path.of("/lib/aarch64-linux-gnu/libfuse3.so.3"))
            || Files.exists(Path.of("/usr/lib/libfuse3.so.3"));
    Assumptions.assumeTrue(
        device && library,
        "FUSE cannot mount here ("
            + (device ? "" : "no /dev/fuse ")
            + (library ? "" : "no libfuse3.so.3: apt-get install fuse3")
            + "): the mount tests are skipped");
  }

  /** The output and exit code of a program of this module run in a JVM of its own. */
  record Run(int exitCode, String output) {}

  static Run run(Class<?> main, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(main.getSimpleName() + " did not end: " + output);
    }
    return new Run(p.exitValue(), output);
  }

  /** Mounts {@code archive} at {@code dir} (made if missing); fails the test if it cannot. */
  static Mounted mount(String archive, Path dir, String... options) throws Exception {
    Files.createDirectories(dir);
    Path log = dir.resolveSibling(dir.getFileName() + ".log");
    List<String> args = new ArrayList<>(List.of(archive, dir.toString(), "--log", log.toString()));
    args.addAll(List.of(options));
    Run run = run(MountMain.class, args.toArray(new String[0]));
    assertEquals(0, run.exitCode(), "hpf mount: " + run.output() + logOf(log));
    return new Mounted(dir, log);
  }

  private static String logOf(Path log) throws IOException {
    return Files.exists(log) ? "\nlog:\n" + Files.readString(log) : "";
  }

  /** The process serving this mount, if it runs: the log's last "serving" line names it. */
  Optional<ProcessHandle> server() throws IOException {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("serving .* \\(process (\\d+)\\)").matcher(logText());
    long pid = -1;
    while (m.find()) {
      pid = Long.parseLong(m.group(1));
    }
    return pid < 0 ? Optional.empty() : ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
  }

  String logText() throws IOException {
    return Files.readString(log);
  }

  /** Unmounts if still mounted, and waits for the serving process to end. */
  @Override
  public void close() throws Exception {
    Optional<ProcessHandle> server = server();
    if (Mounts.typeAt(dir) != null) {
      Mounts.unmount(dir);
    }
    if (server.isPresent()) {
      server.get().onExit().get(30, TimeUnit.SECONDS);
    }
  }
}
