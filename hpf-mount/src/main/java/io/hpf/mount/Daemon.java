package io.hpf.mount;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code hpf mount} without {@code --foreground}, as sshfs and ratarmount behave: starts the mount
 * as a process of its own (its own session, input from /dev/null, output to the log file), returns
 * once the kernel lists the mount, or fails with the mount's own last words.
 */
final class Daemon {
  private static final long START_TIMEOUT_MILLIS = 60_000;

  private Daemon() {}

  /** The command that runs MountMain as this JVM runs it: its java, flags and classpath. */
  static List<String> thisJvmCommand() {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(MountMain.class.getName());
    return command;
  }

  /**
   * Starts {@code mountMain --foreground args} in the background and waits for its mount; {@code
   * mountMain} is the command that runs MountMain (java, flags, classpath, class).
   */
  static int start(
      List<String> mountMain, List<String> args, String archive, Path dir, Path logFile)
      throws IOException, InterruptedException {
    Files.createDirectories(logFile.getParent());
    List<String> command = new ArrayList<>();
    command.add("setsid"); // out of the terminal's session: a Ctrl-C there does not end the mount
    command.addAll(mountMain);
    command.add("--foreground");
    command.addAll(args);
    long logStart = Files.exists(logFile) ? Files.size(logFile) : 0;
    Process child =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
            .redirectErrorStream(true)
            .start();
    long deadline = System.nanoTime() + START_TIMEOUT_MILLIS * 1_000_000L;
    while (System.nanoTime() < deadline) {
      if ("fuse.hpf".equals(Mounts.typeAt(dir))) {
        System.out.println("hpf: mounted " + archive + " at " + dir + " (log: " + logFile + ")");
        return 0;
      }
      if (!child.isAlive()) {
        System.err.println("hpf mount: " + lastWords(logFile, logStart));
        return 1;
      }
      Thread.sleep(20);
    }
    child.destroy();
    System.err.println("hpf mount: no mount at " + dir + " after 60 s (log: " + logFile + ")");
    return 1;
  }

  /** What the mount said before it ended, from the log written since it started. */
  private static String lastWords(Path logFile, long from) throws IOException {
    byte[] all = Files.readAllBytes(logFile);
    int start = (int) Math.min(from, all.length);
    String said = new String(all, start, all.length - start, StandardCharsets.UTF_8).strip();
    if (said.isEmpty()) {
      return "the mount ended at once (log: " + logFile + ")";
    }
    List<String> lines = said.lines().toList();
    return lines.get(lines.size() - 1).replaceFirst("^hpf mount: ", "");
  }
}
