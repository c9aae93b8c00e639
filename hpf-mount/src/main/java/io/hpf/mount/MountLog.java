package io.hpf.mount;

import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The mount's log: one line per event, with the time, on standard error — which {@code hpf mount}
 * points at the log file when it serves in the background.
 */
final class MountLog {
  private final PrintStream out;

  MountLog(PrintStream out) {
    this.out = out;
  }

  void info(String line) {
    write("INFO", line);
  }

  void warn(String line) {
    write("WARN", line);
  }

  /**
   * Logs that {@code entry} of {@code archive} could not be read at {@code offset}, and why;
   * returns the error the read is answered with (EIO).
   */
  io.hpf.mount.fuse.FuseError readFailed(String archive, String entry, long offset, Exception e) {
    warn(
        archive
            + ": cannot read '"
            + entry
            + "' at "
            + offset
            + ": "
            + io.hpf.hadoop.ProgramMessages.describe(e));
    return new io.hpf.mount.fuse.FuseError(io.hpf.mount.fuse.FuseError.EIO);
  }

  private void write(String level, String line) {
    // One line whatever the message holds: a name with a newline must not forge another line.
    String flat = line.replace('\n', ' ').replace('\r', ' ');
    out.println(Instant.now().truncatedTo(ChronoUnit.MILLIS) + " " + level + " " + flat);
    out.flush();
  }
}
