/**
 * Packing trees of files into archives: walking (local disk; Hadoop file systems in hpf-hadoop),
 * reading and compressing on worker threads, training a zstd dictionary on a sample. {@link
 * io.hpf.pack.Packer} is the API.
 */
package io.hpf.pack;
