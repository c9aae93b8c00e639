/**
 * The benchmarks' entry point ({@code BenchMain}) and the measurements of one component each: gets
 * warm and cold, changes, groups, dictionaries, HDFS, the perfect hash; with the arguments,
 * statistics and JSON-lines output they share. Not shipped to users.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model,
 * io.hpf.bench.paper, io.hpf.bench.scale, io.hpf.hadoop, io.hpf.pack, io.hpf.store, io.hpf.testing.
 */
package io.hpf.bench;
