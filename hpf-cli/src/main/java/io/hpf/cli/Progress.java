package io.hpf.cli;

import io.hpf.archive.model.ProgressListener;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-line progress bar on standard error, redrawn at most five times a second, and silent unless
 * the process runs in a terminal (so logs and pipes stay clean). Thread-safe.
 */
final class Progress implements ProgressListener, AutoCloseable {
  private static final long REDRAW_NANOS = 200_000_000L;
  private final PrintWriter err;
  private final String verb;
  private final boolean enabled;
  private final long startNanos = System.nanoTime();
  private final AtomicLong lastDraw = new AtomicLong();
  private volatile boolean drawn;

  Progress(PrintWriter err, String verb) {
    this.err = err;
    this.verb = verb;
    this.enabled = System.console() != null && System.getenv("HPF_NO_PROGRESS") == null;
  }

  @Override
  public void progress(long done, long bytes, long total, long totalBytes) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    long last = lastDraw.get();
    if (now - last < REDRAW_NANOS && done != total) {
      return;
    }
    if (!lastDraw.compareAndSet(last, now)) {
      return;
    }
    double seconds = (now - startNanos) / 1e9;
    String line;
    if (total > 0) {
      int width = 30;
      int filled = (int) (width * done / total);
      line =
          String.format(
              Locale.ROOT,
              "\r%s [%s%s] %d/%d %s %.1fs",
              verb,
              "#".repeat(filled),
              " ".repeat(width - filled),
              done,
              total,
              Format.bytes(bytes),
              seconds);
    } else {
      line =
          String.format(Locale.ROOT, "\r%s %d %s %.1fs", verb, done, Format.bytes(bytes), seconds);
    }
    synchronized (err) {
      err.print(line);
      err.flush();
    }
    drawn = true;
  }

  @Override
  public void close() {
    if (drawn) {
      synchronized (err) {
        err.print("\r\033[K");
        err.flush();
      }
    }
  }
}
