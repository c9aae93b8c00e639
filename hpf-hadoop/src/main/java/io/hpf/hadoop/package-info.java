/**
 * Hadoop file systems as hpf storage ({@link io.hpf.hadoop.HadoopStorage}): HDFS, S3A and the local
 * file system through Hadoop's API, with the settings, caches and cost models engines share, and
 * the messages programs print (in hpf's words).
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.pack,
 * io.hpf.store.
 */
package io.hpf.hadoop;
