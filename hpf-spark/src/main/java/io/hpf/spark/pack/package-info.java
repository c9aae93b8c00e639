/**
 * Packing on a cluster: {@code hpf spark-pack} lists a tree with Spark tasks, packs files with
 * tasks placed at their blocks, and commits once ({@link io.hpf.spark.pack.SparkPack}).
 */
package io.hpf.spark.pack;
