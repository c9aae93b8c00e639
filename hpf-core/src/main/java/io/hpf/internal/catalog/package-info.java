/**
 * Internal: a segment's catalog file (FORMAT.md "Catalog"): rows sorted by name in compressed
 * blocks, for listing by prefix and selectors without reading content. May import {@code
 * io.hpf.internal.format}, {@link io.hpf.store} and the API's value types.
 */
package io.hpf.internal.catalog;
