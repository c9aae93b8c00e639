/**
 * Where many archives live: a directory, on local disk or a Hadoop file system, searched for
 * directories named {@code *.hpf}, each archive known by its path below the root without the
 * suffix. What {@code hpf serve} serves and {@code hpf mount} mounts.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.hadoop, io.hpf.store.
 */
package io.hpf.hadoop.roots;
