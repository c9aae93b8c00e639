/**
 * The MapReduce benchmark: jobs over hpf archives against plain files.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.bench,
 * io.hpf.bench.paper, io.hpf.hadoop, io.hpf.hadoop.fs, io.hpf.mapreduce, io.hpf.mapreduce.jobs.
 */
package io.hpf.bench.mapreduce;
