package io.hpf.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.hadoop.MiniHdfs;
import io.hpf.mapreduce.jobs.SfJobs;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A job on a real YARN (MiniMRYarnCluster: ResourceManager, NodeManager, an MR application master
 * and task containers in their own JVMs) over an archive on HDFS: the input format's splits become
 * map tasks, the committer runs in the application master. In the long profile: a minute.
 */
@Tag("long")
class YarnJobTest {
  @Test
  void wordCountRunsOnYarnWithOneMapTaskPerSplit() throws Exception {
    ArchiveJobsTest.writeTexts();
    MiniHdfs hdfs = MiniHdfs.shared();
    Configuration conf = new Configuration(hdfs.fs().getConf());
    conf.set("fs.defaultFS", hdfs.fs().getUri().toString());
    String opens = "-Xmx512m --add-opens java.base/java.lang=ALL-UNNAMED";
    conf.set("yarn.app.mapreduce.am.command-opts", opens); // the AM's web app uses Guice too
    conf.set("mapreduce.map.java.opts", opens);
    conf.set("mapreduce.reduce.java.opts", opens);
    MiniMRYarnCluster yarn = new MiniMRYarnCluster("hpf-yarn", 1);
    yarn.init(conf);
    yarn.start();
    try {
      Configuration jobConf = new Configuration(yarn.getConfig());
      jobConf.setLong(ArchiveInputFormat.SPLIT_SIZE, 16 << 10);
      Path out = hdfs.fs().makeQualified(hdfs.freshPath("yarn-wc.hpf"));
      Job job =
          SfJobs.build(
              SfJobs.Kind.WORDCOUNT, jobConf, List.of(ArchiveJobsTest.input()), out, null, false);
      assertTrue(job.waitForCompletion(true), "the job on YARN");
      long maps = job.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
      TreeMap<String, String> entries = ArchiveJobsTest.entries(out);
      assertEquals(maps, entries.size(), "one entry per map task");
      assertTrue(maps > 1, "several splits: " + maps);
      assertEquals(ArchiveJobsTest.modelCounts(), ArchiveJobsTest.totals(entries));
    } finally {
      yarn.stop();
    }
  }
}
