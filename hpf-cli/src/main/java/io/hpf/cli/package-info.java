/**
 * The {@code hpf} command: one class per subcommand (picocli), the flags they share, and the
 * messages and exit codes users see.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.pack, io.hpf.store.
 */
package io.hpf.cli;
