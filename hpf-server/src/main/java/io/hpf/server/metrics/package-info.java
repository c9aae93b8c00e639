/**
 * The server's counters and latency histograms, as the admin page and logs show them.
 *
 * <p>May import (checked by ArchitectureTest): nothing of hpf.
 */
package io.hpf.server.metrics;
