/**
 * Spark over archives: the {@code hpf} data source ({@link io.hpf.spark.HpfDataSource}), reading
 * archives as DataFrames ({@code read}), writing DataFrames into archives in one commit ({@code
 * write}), and packing a file tree with Spark tasks ({@code pack}).
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.spark.read, io.hpf.spark.write.
 */
package io.hpf.spark;
