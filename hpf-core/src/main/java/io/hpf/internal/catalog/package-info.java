/**
 * Internal: a segment's catalog file (FORMAT.md "Catalog"): rows sorted by name in compressed
 * blocks, for listing by prefix and selectors without reading content.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.format,
 * io.hpf.store.
 */
package io.hpf.internal.catalog;
