package io.hpf.internal.write;

import java.io.IOException;

/**
 * A commit plan worked out on a thread of its own while the commit writes its segment: for the
 * first commit of a new archive, whose plan is known in advance unless it refuses the commit (every
 * row a new name: {@link CommitPlan#forNewArchive}). The plan's pass and the segment's are the two
 * reads of the rows a commit makes; side by side they take the time of one on two cores, which was
 * a tenth of packing a tree of 1 KB files. The commit waits for the check before its manifest is
 * made current, and a refusal is the commit's error, as if the plan had been made first.
 */
public final class PlanCheck {
  private final Beside<CommitPlan> task;
  private final CommitPlan assumed;
  private volatile boolean refused;

  private PlanCheck(Beside<CommitPlan> task, CommitPlan assumed) {
    this.task = task;
    this.assumed = assumed;
  }

  /** Starts {@code plan} on a thread of its own; the commit goes on with {@code assumed}. */
  public static PlanCheck start(
      java.util.concurrent.Callable<CommitPlan> plan, CommitPlan assumed) {
    return new PlanCheck(Beside.start("hpf-commit-check", "checking a commit", plan), assumed);
  }

  /** A plan's failure as the commit throws it (see {@link Beside#asThrown}). */
  public static IOException asThrown(Throwable failure) {
    return Beside.asThrown(failure);
  }

  /** Whether the plan refused the commit (once {@link #await} has returned or thrown). */
  public boolean refused() {
    return refused;
  }

  /**
   * After the segment's write failed with {@code failure}: waits for the plan, and throws its
   * refusal if it has one (the write's failure added to it), as the plan would have been first.
   */
  public void awaitWithin(Exception failure) throws IOException {
    try {
      await();
    } catch (IOException | RuntimeException refusal) {
      if (refused) {
        refusal.addSuppressed(failure);
        throw refusal;
      }
    }
  }

  /**
   * Waits for the plan: returns if it is the one assumed, throws its refusal otherwise (the errors
   * {@link CommitPlan#of} throws, as it throws them).
   */
  public void await() throws IOException {
    CommitPlan made;
    try {
      made = task.get();
    } catch (java.io.InterruptedIOException e) {
      throw e;
    } catch (IOException | RuntimeException refusal) {
      refused = true;
      throw refusal;
    }
    if (made.liveEntries() != assumed.liveEntries()
        || made.liveBytes() != assumed.liveBytes()
        || made.rows().size() != assumed.rows().size()) {
      throw new IllegalStateException(
          "a new archive's commit planned "
              + made.liveEntries()
              + " entries of "
              + made.liveBytes()
              + " bytes, not the "
              + assumed.liveEntries()
              + " of "
              + assumed.liveBytes()
              + " assumed");
    }
  }
}
