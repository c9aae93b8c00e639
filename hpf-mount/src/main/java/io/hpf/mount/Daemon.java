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
    long logStart = Files.exists(logFile) ? Files.size(logFile) : 0;
    long pid = startDetached(mountMain, args, logFile);
    // Gone already (a mount that fails at once can end before it is looked at): its log says why.
    java.util.Optional<ProcessHandle> child = ProcessHandle.of(pid);
    long deadline = System.nanoTime() + START_TIMEOUT_MILLIS * 1_000_000L;
    while (System.nanoTime() < deadline) {
      if ("fuse.hpf".equals(Mounts.typeAt(dir))) {
        System.out.println("hpf: mounted " + archive + " at " + dir + " (log: " + logFile + ")");
        return 0;
      }
      if (child.isEmpty() || !child.get().isAlive()) {
        System.err.println("hpf mount: " + lastWords(logFile, logStart));
        return 1;
      }
      Thread.sleep(20);
    }
    child.get().destroy();
    System.err.println("hpf mount: no mount at " + dir + " after 60 s (log: " + logFile + ")");
    return 1;
  }

  /**
   * Starts the mount's process through a shell that leaves it running and ends: its own session (a
   * Ctrl-C in the terminal does not end it), input from /dev/null, output appended to the log. Not
   * as this JVM's own child: a JVM with a live child takes a third of a second to exit (its exit
   * waits on the thread that waits for the child), which every {@code hpf mount} would pay.
   */
  private static long startDetached(List<String> mountMain, List<String> args, Path log)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("sh");
    command.add("-c");
    command.add("setsid \"$@\" </dev/null >>\"$0\" 2>&1 & echo $!");
    command.add(log.toString());
    command.addAll(mountMain);
    command.add("--foreground");
    command.addAll(args);
    Process shell = new ProcessBuilder(command).redirectErrorStream(true).start();
    String said = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    shell.waitFor();
    try {
      return Long.parseLong(said);
    } catch (NumberFormatException e) {
      throw new IOException("cannot start the mount's process: " + said, e);
    }
  }

  /** What the mount said before it ended, from the log written since it started. */
  private static String lastWords(Path logFile, long from) throws IOException {
    byte[] all = Files.readAllBytes(logFile);
    int start = (int) Math.min(from, all.length);
    String said = new String(all, start, all.length - start, StandardCharsets.UTF_8).strip();
    if (said.isEmpty()) {
      return "the mount's process ended without saying why (log: "
          + logFile
          + "; hpf mount --foreground shows it all)";
    }
    List<String> lines = said.lines().toList();
    String last = lines.get(lines.size() - 1).replaceFirst("^hpf mount: ", "");
    String why = io.hpf.mount.fuse.FuseSession.SAID_BEFORE; // libfuse's own line: join it
    if (last.endsWith(why) && lines.size() > 1) {
      last = last.substring(0, last.length() - why.length()) + ": " + lines.get(lines.size() - 2);
    }
    return last;
  }
}
