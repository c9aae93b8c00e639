package io.hpf.mount;

import io.hpf.archive.GroupCommitWriter;
import io.hpf.archive.model.Generation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The changes of a writable mount on their way to the archive's {@link GroupCommitWriter}, in the
 * order they were made. A closed file waits {@link #SETTLE_MILLIS} before it goes, so that what
 * programs do right after a close ({@code tar} and {@code cp -p} set the time and mode, {@code
 * rsync} renames its temporary file) joins it instead of costing another commit of its content; a
 * deletion goes at once. {@link #sync} sends everything queued so far and tells when a durable
 * commit holds it.
 */
final class ChangeQueue {
  /** How long a closed file waits for what follows its close. */
  static final long SETTLE_MILLIS = 200;

  /** One change queued: the {@code seq}-th, due at {@code dueNanos}. */
  private record Item(Pending pending, long seq, long dueNanos) {}

  /** A {@link #sync}: done once everything up to {@code seq} is committed. */
  private record Barrier(long seq, long failuresBefore, CompletableFuture<Void> done) {}

  /** What is sent: the changes of a pending item, or null if it no longer goes. */
  interface Sender {
    CompletableFuture<Generation> send(Pending pending, long seq);
  }

  private final ArrayDeque<Item> items = new ArrayDeque<>();
  private final List<Barrier> barriers = new ArrayList<>();
  private final List<CompletableFuture<Generation>> inFlight = new ArrayList<>();
  private long nextSeq = 1;
  private long hurryThrough; // items up to this one are due now
  private long sentThrough; // every item up to this one was sent
  private boolean closing;
  private long failures; // commits that failed, ever
  private Throwable lastFailure;
  private final Thread sender;

  private final Runnable hurry;

  /** Changes go through {@code send}; {@code hurry} commits what was sent without more waiting. */
  ChangeQueue(Sender send, Runnable hurry) {
    this.hurry = hurry;
    this.sender = new Thread(() -> sendAll(send), "hpf-mount-changes");
    sender.setDaemon(true);
    sender.start();
  }

  /** Queues {@code pending} (settling first if {@code settle}); returns its place. */
  synchronized long add(Pending pending, boolean settle) {
    long now = System.nanoTime();
    long seq = nextSeq++;
    long due = settle ? now + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS) : now;
    boolean wake = items.isEmpty() || !settle; // else the sender waits for an earlier one's time
    items.add(new Item(pending, seq, due));
    if (wake) {
      notifyAll();
    }
    return seq;
  }

  /**
   * Sends everything queued so far at once; the future completes once durable commits hold it, or
   * fails if one of them failed.
   */
  synchronized CompletableFuture<Void> sync() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    hurryThrough = nextSeq - 1;
    barriers.add(new Barrier(hurryThrough, failures, done));
    notifyAll();
    return done;
  }

  /** Sends what is queued, at once, and stops the sender once it is sent. */
  void close() throws InterruptedException {
    synchronized (this) {
      closing = true;
      notifyAll();
    }
    sender.join();
  }

  private void sendAll(Sender send) {
    while (true) {
      Item item;
      synchronized (this) {
        try {
          item = nextDue();
        } catch (InterruptedException e) {
          return;
        }
        if (item == null) {
          return; // closing, and all sent
        }
      }
      CompletableFuture<Generation> sent = send.send(item.pending(), item.seq());
      synchronized (this) {
        sentThrough = item.seq();
        if (sent != null) {
          inFlight.add(sent);
          sent.whenComplete((g, e) -> landed(sent, e));
        }
        releaseBarriers();
      }
    }
  }

  /** Waits for the head item to be due and takes it; null once closing with none left. */
  private Item nextDue() throws InterruptedException {
    while (true) {
      Item head = items.peek();
      if (head == null) {
        sentThrough = nextSeq - 1;
        releaseBarriers();
        if (closing) {
          return null;
        }
        wait();
        continue;
      }
      long left = head.dueNanos() - System.nanoTime();
      if (left <= 0 || head.seq() <= hurryThrough || closing) {
        return items.poll();
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  private synchronized void landed(CompletableFuture<Generation> sent, Throwable failure) {
    inFlight.remove(sent);
    if (failure != null) {
      failures++;
      lastFailure = failure;
    }
  }

  /** A sync whose commits all landed: done, or failed if a commit failed since it was asked. */
  private synchronized void settle(Barrier b) {
    if (failures > b.failuresBefore()) {
      b.done().completeExceptionally(lastFailure);
    } else {
      b.done().complete(null);
    }
  }

  /** Completes, once the commits in flight land, the syncs whose items were all sent. */
  private void releaseBarriers() {
    for (var it = barriers.iterator(); it.hasNext(); ) {
      Barrier b = it.next();
      if (b.seq() <= sentThrough) {
        it.remove();
        hurry.run();
        CompletableFuture.allOf(inFlight.toArray(new CompletableFuture<?>[0]))
            .whenComplete((v, e) -> settle(b));
      }
    }
  }
}
