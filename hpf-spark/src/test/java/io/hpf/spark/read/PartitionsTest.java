package io.hpf.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.spark.EntrySchema;
import io.hpf.spark.HadoopConf;
import io.hpf.spark.SharedHdfs;
import io.hpf.spark.SharedSpark;
import io.hpf.testing.ArchiveModel;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.InputPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Partitions of an archive on a real HDFS of three DataNodes with distinct host names: every entry
 * once, whole entries of one part in offset order within the size, placed at the hosts holding most
 * of their bytes.
 */
class PartitionsTest {
  private static SparkSession spark;
  private static FileSystem fs;
  private static Path archive;
  private static TreeMap<String, byte[]> model;

  @BeforeAll
  static void writeArchive() throws Exception {
    spark = SharedSpark.session();
    fs = SharedHdfs.fs();
    archive = SharedHdfs.freshPath("spread.hpf");
    model = new TreeMap<>();
    SplittableRandom random = new SplittableRandom(8);
    for (int i = 0; i < 3000; i++) {
      model.put(
          String.format(java.util.Locale.ROOT, "d%02d/f%05d", i % 17, i),
          ArchiveModel.content(random, random.nextInt(500, 3500)));
    }
    // One replica of 1 MiB blocks: each block on one of the three DataNodes.
    HadoopStorageOptions options =
        HadoopStorageOptions.DEFAULTS.withPartBlockSize(1 << 20).withReplication((short) 1);
    HadoopStorage storage = HadoopStorage.createDirectories(fs, archive, options, false);
    try (ArchiveWriter writer =
        ArchiveWriter.create(
            storage, WriterOptions.builder().codec(Codec.NONE).maxPartBytes(4 << 20).build())) {
      for (var e : model.entrySet()) {
        writer.add(e.getKey(), e.getValue(), EntryMetadata.of(1_700_000_000_000L));
      }
      writer.commit();
    }
  }

  @Test
  void partitionsCoverEveryEntryOnceAtTheirBlocksHosts() throws Exception {
    long maxPartitionBytes = 700 << 10;
    EntryScan scan =
        new EntryScan(
            new HadoopConf(spark.sparkContext().hadoopConfiguration()),
            new ReadOptions(List.of(archive.toString()), maxPartitionBytes, 1 << 20, 0, ""),
            List.of(),
            EntrySchema.SCHEMA);
    Map<String, Long> before = nameNodeOps();
    InputPartition[] partitions = scan.planInputPartitions();
    Map<String, Long> after = nameNodeOps();
    long parts =
        Arrays.stream(partitions).mapToInt(p -> ((EntryPartition) p).partId).distinct().count();
    long blockCalls = delta(before, after, "op_get_file_block_locations");
    long allCalls =
        after.values().stream().mapToLong(Long::longValue).sum()
            - before.values().stream().mapToLong(Long::longValue).sum();
    // One block-location call per part; the rest (listing, opens) does not grow with entries.
    assertEquals(parts, blockCalls, "block-location calls: " + after);
    assertTrue(
        allCalls <= 2 * parts + 20,
        "NameNode calls to plan " + model.size() + " entries: " + allCalls);
    Set<String> seen = new HashSet<>();
    Set<String> allHosts = new HashSet<>();
    Map<Integer, BlockLocation[]> blocks = new HashMap<>();
    for (InputPartition generic : partitions) {
      EntryPartition p = (EntryPartition) generic;
      BlockLocation[] partBlocks = blocks.computeIfAbsent(p.partId, id -> blocksOf(id));
      for (int i = 0; i < p.size(); i++) {
        assertTrue(seen.add(p.names[i]), "twice: " + p.names[i]);
        assertEquals(model.get(p.names[i]).length, p.lengths[i]);
        if (i > 0) {
          assertTrue(p.offsets[i] > p.offsets[i - 1], "offset order");
        }
      }
      long start = p.offsets[0];
      long end = p.offsets[p.size() - 1] + 1;
      // The model of placement: hosts by bytes of the partition's range their blocks hold.
      Map<String, Long> held = new HashMap<>();
      for (BlockLocation b : partBlocks) {
        long overlap =
            Math.min(end, b.getOffset() + b.getLength()) - Math.max(start, b.getOffset());
        if (overlap > 0) {
          for (String h : b.getHosts()) {
            held.merge(h, overlap, Long::sum);
          }
        }
      }
      String[] hosts = p.preferredLocations();
      assertTrue(hosts.length > 0);
      long most = held.values().stream().mapToLong(Long::longValue).max().orElseThrow();
      assertEquals(most, held.get(hosts[0]), "the first host holds the most");
      allHosts.addAll(List.of(hosts));
    }
    assertEquals(model.keySet(), seen);
    assertTrue(partitions.length >= 8, "partitions: " + partitions.length);
    for (String h : allHosts) {
      assertTrue(h.endsWith(".hpf.test"), h);
    }
    assertTrue(allHosts.size() > 1, "blocks on one DataNode only: " + allHosts);
  }

  /** This JVM's HDFS client calls so far, by operation. */
  private static Map<String, Long> nameNodeOps() {
    Map<String, Long> ops = new HashMap<>();
    var stats =
        org.apache.hadoop.fs.FileSystem.getGlobalStorageStatistics().get("DFSOpsCountStatistics");
    if (stats != null) {
      for (var it = stats.getLongStatistics(); it.hasNext(); ) {
        var s = it.next();
        ops.put(s.getName(), s.getValue());
      }
    }
    return ops;
  }

  private static long delta(Map<String, Long> before, Map<String, Long> after, String op) {
    return after.getOrDefault(op, 0L) - before.getOrDefault(op, 0L);
  }

  private static BlockLocation[] blocksOf(int partId) {
    try {
      Path part = new Path(archive, FileNames.partFileName(partId));
      return fs.getFileBlockLocations(part, 0, fs.getFileStatus(part).getLen());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aDataFrameOnHdfsHoldsEveryEntry() {
    List<Row> rows =
        spark
            .read()
            .format("hpf")
            .option("maxPartitionBytes", 512 << 10)
            .load(archive.toString())
            .select("name", "content")
            .collectAsList();
    assertEquals(model.size(), rows.size());
    for (Row r : rows) {
      assertArrayEquals(model.get(r.getString(0)), (byte[]) r.get(1), r.getString(0));
    }
  }
}
