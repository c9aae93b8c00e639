/**
 * Engine writes into archives: tasks stage archives of their own inside the target's directory, and
 * the job commits them all in one manifest. Used by the MapReduce output committer and the Spark
 * writer.
 */
package io.hpf.hadoop.stage;
