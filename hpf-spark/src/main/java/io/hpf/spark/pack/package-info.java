/**
 * Packing on a cluster: {@code hpf spark-pack} lists a tree with Spark tasks, packs files with
 * tasks placed at their blocks, and commits once ({@link io.hpf.spark.pack.SparkPack}).
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.hadoop.stage, io.hpf.pack, io.hpf.spark, io.hpf.store.
 */
package io.hpf.spark.pack;
