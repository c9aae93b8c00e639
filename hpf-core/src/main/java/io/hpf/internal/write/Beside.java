package io.hpf.internal.write;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Work of a commit done on a thread of its own beside the commit's own ({@link PlanCheck}, {@link
 * IndexAhead}); its failure is thrown by {@link #get} as the commit would have thrown it.
 */
final class Beside<T> {
  private final FutureTask<T> task;
  private final String what;

  private Beside(FutureTask<T> task, String what) {
    this.task = task;
    this.what = what;
  }

  /**
   * Starts {@code work} on a daemon thread named {@code name}; {@code what} says what it does, for
   * an interrupted wait ("checking a commit").
   */
  static <T> Beside<T> start(String name, String what, Callable<T> work) {
    FutureTask<T> task = new FutureTask<>(work);
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return new Beside<>(task, what);
  }

  /**
   * Waits for the work's result; its failure thrown as it is (an I/O or runtime exception, an
   * error), anything else as an I/O exception.
   */
  T get() throws IOException {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while " + what);
    } catch (ExecutionException e) {
      throw asThrown(e.getCause());
    }
  }

  /** Waits for the work to end, whatever its outcome (what it reads is about to be closed). */
  void awaitQuietly() {
    try {
      task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // the caller's failure is the one to tell
    }
  }

  /** A failure as a commit throws it: an error or runtime exception as it is, else I/O. */
  static IOException asThrown(Throwable failure) {
    if (failure instanceof Error error) {
      throw error;
    }
    if (failure instanceof RuntimeException re) {
      throw re;
    }
    return failure instanceof IOException io ? io : new IOException(failure);
  }
}
