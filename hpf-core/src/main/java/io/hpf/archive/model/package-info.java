/**
 * The API's model: what its calls take and give, shared by the facade ({@link io.hpf.archive}) and
 * the internals, so that no internal package needs the facade. Entries ({@link
 * io.hpf.archive.model.EntryInfo}, {@link io.hpf.archive.model.EntryMetadata}, {@link
 * io.hpf.archive.model.Codec}), committed generations and settings, the writer's options, results,
 * and the errors a user can catch, all under {@link io.hpf.archive.model.ArchiveException} but a
 * missing name ({@link io.hpf.archive.model.EntryNotFoundException}, a {@code
 * FileNotFoundException}).
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.store.
 */
package io.hpf.archive.model;
