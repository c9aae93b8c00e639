package io.hpf.hadoop;

import org.apache.hadoop.conf.Configuration;

/** HDFS settings that hpf applies to the clusters it starts itself (tests, {@code hpf hdfs}). */
public final class HdfsSettings {
  private HdfsSettings() {}

  /**
   * With the defaults every close of a small file sleeps about 400 ms: the client waits with
   * exponential back-off (from 400 ms) for the NameNode to see the last block's replicas as
   * complete. Allowing one committed-but-unreported block at close and starting the back-off at a
   * few milliseconds makes a close take milliseconds, with the same safety for a single-machine
   * cluster (the DataNode reports the block a heartbeat later). The back-off doubles from there;
   * with the default 5 retries a close gave up after 155 ms, which a loaded machine (eight writers
   * and a Spark test beside them) exceeded ("the last block does not have enough number of
   * replicas"). 12 retries wait up to about 20 s in all, as the defaults' 12 s did, while a close
   * on an idle cluster still takes milliseconds.
   */
  public static void applyFastClose(Configuration conf) {
    conf.setInt("dfs.namenode.file.close.num-committed-allowed", 1);
    conf.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 5);
    conf.setInt("dfs.client.block.write.locateFollowingBlock.retries", 12);
  }
}
