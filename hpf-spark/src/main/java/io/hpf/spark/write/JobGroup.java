package io.hpf.spark.write;

import org.apache.spark.SparkContext;
import org.apache.spark.SparkJobInfo;
import org.apache.spark.SparkStageInfo;

/**
 * The Spark jobs of one write, in a job group of their own, so that a failed write can cancel what
 * is still running and wait for it before deleting the staging files those tasks write. Entering
 * sets the calling thread's job group; closing restores the one it had.
 */
final class JobGroup implements AutoCloseable {
  private static final String ID = "spark.jobGroup.id";
  private static final String DESCRIPTION = "spark.job.description";
  private static final String INTERRUPT = "spark.job.interruptOnCancel";
  private static final long WAIT_MILLIS = 120_000;

  private final SparkContext sc;
  private final String id;
  private final String description;
  private final String interrupt;

  private JobGroup(SparkContext sc) {
    this.sc = sc;
    this.id = sc.getLocalProperty(ID);
    this.description = sc.getLocalProperty(DESCRIPTION);
    this.interrupt = sc.getLocalProperty(INTERRUPT);
  }

  static JobGroup enter(SparkContext sc, String group, String what) {
    JobGroup previous = new JobGroup(sc);
    sc.setJobGroup(group, what, true);
    return previous;
  }

  /** Cancels the group's jobs and waits until none of their tasks runs (at most two minutes). */
  static void cancelAndWait(SparkContext sc, String group) {
    sc.cancelJobGroup(group);
    long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000L;
    while (System.nanoTime() < deadline && activeTasks(sc, group) > 0) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static int activeTasks(SparkContext sc, String group) {
    int active = 0;
    for (int jobId : sc.statusTracker().getJobIdsForGroup(group)) {
      SparkJobInfo job = sc.statusTracker().getJobInfo(jobId).getOrElse(() -> null);
      if (job == null) {
        continue;
      }
      for (int stageId : job.stageIds()) {
        SparkStageInfo stage = sc.statusTracker().getStageInfo(stageId).getOrElse(() -> null);
        if (stage != null) {
          active += stage.numActiveTasks();
        }
      }
    }
    return active;
  }

  @Override
  public void close() {
    sc.setLocalProperty(ID, id);
    sc.setLocalProperty(DESCRIPTION, description);
    sc.setLocalProperty(INTERRUPT, interrupt);
  }
}
