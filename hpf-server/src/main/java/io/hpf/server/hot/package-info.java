/**
 * The hottest names of a stream in bounded memory (Space-Saving over a sliding window): what a
 * server caches and reports.
 *
 * <p>May import (checked by ArchitectureTest): nothing of hpf.
 */
package io.hpf.server.hot;
