package io.hpf.spark.pack;

/**
 * What {@link SparkPack} did.
 *
 * @param files entries written
 * @param bytes their bytes
 * @param listTasks tasks that listed subtrees (0 when the driver listed a small tree alone)
 * @param packTasks tasks that packed files
 * @param dictionaryBytes the trained dictionary's size, 0 for none
 * @param seconds wall time
 * @param skipped what the listing left out, and why (symbolic links, not regular files)
 */
public record SparkPackResult(
    long files,
    long bytes,
    int listTasks,
    int packTasks,
    int dictionaryBytes,
    double seconds,
    java.util.List<String> skipped) {}
