/**
 * Spark over archives: the {@code hpf} data source ({@link io.hpf.spark.HpfDataSource}), reading
 * archives as DataFrames ({@code read}), writing DataFrames into archives in one commit ({@code
 * write}), and packing a file tree with Spark tasks ({@code pack}).
 */
package io.hpf.spark;
