/**
 * Reading archives as DataFrames: a DataSource V2 table whose scan pushes metadata filters to the
 * catalogs and index, prunes columns (no content, no part-file read), and cuts partitions of whole
 * entries of one part placed at their blocks' hosts.
 */
package io.hpf.spark.read;
