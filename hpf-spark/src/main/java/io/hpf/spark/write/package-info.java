/**
 * Writing DataFrames into archives: tasks stage archives of their own, the driver commits them in
 * one manifest commit; modes errorifexists, ignore, append and overwrite.
 */
package io.hpf.spark.write;
