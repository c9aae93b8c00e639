/**
 * Packing trees of files into archives: walking (local disk; Hadoop file systems in hpf-hadoop),
 * reading and compressing on worker threads, training a zstd dictionary on a sample. {@link
 * io.hpf.pack.Packer} is the API.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.store.
 */
package io.hpf.pack;
