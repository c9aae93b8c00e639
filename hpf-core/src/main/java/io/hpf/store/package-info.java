/**
 * Where archive files live, as hpf sees them: {@link io.hpf.store.Storage} names, opens, appends,
 * renames and deletes whole files; {@link io.hpf.store.LocalStorage} is local disk, and hpf-hadoop
 * adapts any Hadoop file system. An implementation is all a new store needs.
 *
 * <p>Dependencies: none in hpf; everything else builds on this package.
 *
 * <p>May import (checked by ArchitectureTest): nothing of hpf.
 */
package io.hpf.store;
