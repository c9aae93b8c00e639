/**
 * Writing DataFrames into archives: tasks stage archives of their own, the driver commits them in
 * one manifest commit; modes errorifexists, ignore, append and overwrite.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.hadoop.stage, io.hpf.spark, io.hpf.store.
 */
package io.hpf.spark.write;
