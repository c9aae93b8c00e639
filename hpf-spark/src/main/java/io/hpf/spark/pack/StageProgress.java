package io.hpf.spark.pack;

import java.io.PrintStream;
import java.util.Locale;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.StageInfo;

/** A line on the console per completed stage: what it did, its tasks and its time. */
final class StageProgress extends SparkListener {
  private final PrintStream out;

  StageProgress(PrintStream out) {
    this.out = out;
  }

  @Override
  public void onStageCompleted(SparkListenerStageCompleted completed) {
    StageInfo stage = completed.stageInfo();
    long millis =
        stage.completionTime().isDefined() && stage.submissionTime().isDefined()
            ? (Long) stage.completionTime().get() - (Long) stage.submissionTime().get()
            : -1;
    String failure =
        stage.failureReason().isDefined() ? ", failed: " + stage.failureReason().get() : "";
    out.println(
        String.format(
            Locale.ROOT,
            "hpf spark-pack: stage %d done: %d tasks in %.1f s%s",
            stage.stageId(),
            stage.numTasks(),
            millis / 1000.0,
            failure));
  }
}
