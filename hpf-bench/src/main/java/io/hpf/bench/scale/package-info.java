/**
 * The scale runs: archives of generated entries up to billions, written and read back.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.bench,
 * io.hpf.store.
 */
package io.hpf.bench.scale;
