/**
 * SFMapReduce's three jobs over archives (WordCount, Grep, Sort), map-only by default as the paper
 * runs them, each writing its results back into an archive; {@code --reduce} adds a reduce phase
 * for one global result. {@link io.hpf.mapreduce.jobs.MapReduceMain} is {@code hpf mapreduce}.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.hadoop, io.hpf.mapreduce, io.hpf.select.
 */
package io.hpf.mapreduce.jobs;
