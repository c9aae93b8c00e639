/**
 * Engine writes into archives: tasks stage archives of their own inside the target's directory, and
 * the job commits them all in one manifest. Used by the MapReduce output committer and the Spark
 * writer.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.store.
 */
package io.hpf.hadoop.stage;
