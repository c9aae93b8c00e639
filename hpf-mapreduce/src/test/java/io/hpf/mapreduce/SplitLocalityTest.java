package io.hpf.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.HdfsSettings;
import io.hpf.internal.format.FileNames;
import io.hpf.testing.ArchiveModel;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;

/**
 * Splits name the hosts of the part blocks that hold their bytes, on a cluster of DataNodes with
 * distinct host names and one replica per block (so that each block lives on one host).
 */
class SplitLocalityTest {
  @Test
  void splitHostsAreThoseOfThePartBlocksHoldingTheirEntries() throws Exception {
    Configuration conf = new Configuration();
    java.nio.file.Path base = Files.createTempDirectory("hpf-locality");
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
    HdfsSettings.applyFastClose(conf);
    conf.setInt("dfs.replication", 1);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
    MiniDFSCluster cluster =
        new MiniDFSCluster.Builder(conf)
            .numDataNodes(3)
            .hosts(new String[] {"dn-a.test", "dn-b.test", "dn-c.test"})
            .build();
    try {
      cluster.waitActive();
      DistributedFileSystem fs = cluster.getFileSystem();
      Path dir = fs.makeQualified(new Path("/locality.hpf"));
      long block = 64 << 10;
      HadoopStorage storage =
          HadoopStorage.createDirectories(
              fs, dir, HadoopStorageOptions.DEFAULTS.withPartBlockSize(block), false);
      SplittableRandom random = new SplittableRandom(4);
      try (ArchiveWriter writer =
          ArchiveWriter.create(storage, WriterOptions.builder().codec(Codec.NONE).build())) {
        for (int i = 0; i < 300; i++) {
          writer.add(
              "f" + i,
              ArchiveModel.content(random, random.nextInt(100, 9000)),
              EntryMetadata.of(0));
        }
        writer.commit();
      }
      Job job = ArchiveInputs.job(fs.getConf(), dir);
      ArchiveInputFormat.setSplitSize(job, block);
      List<InputSplit> splits = new HpfInputFormat().getSplits(job);
      Set<String> seenHosts = new HashSet<>();
      for (InputSplit s : splits) {
        HpfSplit split = (HpfSplit) s;
        Path part = new Path(dir, FileNames.partFileName(split.partId()));
        long[] offsets = split.offsets();
        long start = offsets[0];
        // The split's bytes are its entries', from the first's start: at most one block group.
        BlockLocation[] blocks = fs.getFileBlockLocations(part, start, split.getLength());
        Map<String, Long> held = new HashMap<>();
        for (BlockLocation b : blocks) {
          long overlap =
              Math.min(start + split.getLength(), b.getOffset() + b.getLength())
                  - Math.max(start, b.getOffset());
          for (String host : b.getHosts()) {
            held.merge(host, Math.max(0, overlap), Long::sum);
          }
        }
        held.values().removeIf(v -> v == 0);
        assertEquals(held.keySet(), Set.of(split.getLocations()), split.toString());
        long most = held.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertEquals(most, held.get(split.getLocations()[0]));
        seenHosts.addAll(held.keySet());
      }
      assertTrue(seenHosts.size() > 1, "blocks spread over several DataNodes: " + seenHosts);
      assertTrue(seenHosts.stream().allMatch(h -> h.startsWith("dn-")), seenHosts.toString());
    } finally {
      cluster.shutdown(true);
    }
  }
}
