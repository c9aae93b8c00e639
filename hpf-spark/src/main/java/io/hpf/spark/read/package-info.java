/**
 * Reading archives as DataFrames: a DataSource V2 table whose scan pushes metadata filters to the
 * catalogs and index, prunes columns (no content, no part-file read), and cuts partitions of whole
 * entries of one part placed at their blocks' hosts.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.hadoop.plan, io.hpf.select, io.hpf.spark, io.hpf.store.
 */
package io.hpf.spark.read;
