/**
 * Selectors: which entries of an archive a job reads, decided on catalog metadata (name, size,
 * mtime, attributes) before any content is read, as SFMapReduce's selector does. {@link
 * io.hpf.select.Selector#parse} reads the {@code --select} grammar (its parser is internal); a user
 * class may implement {@link io.hpf.select.Selector} instead.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model.
 */
package io.hpf.select;
