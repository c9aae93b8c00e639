/**
 * MapReduce over archives (the {@code org.apache.hadoop.mapreduce} API), after SFMapReduce's
 * customized MapReduce: {@link io.hpf.mapreduce.HpfInputFormat} combines whole entries into splits
 * grouped by part-file block and chosen by a selector on metadata; {@link
 * io.hpf.mapreduce.HpfOutputFormat} writes a job's output as entries of an archive, visible in one
 * commit.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.hadoop.plan, io.hpf.hadoop.stage, io.hpf.select, io.hpf.store.
 */
package io.hpf.mapreduce;
