/**
 * A Java client of hpf's HTTP API: gets, stats, listings by page.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.server.ring.
 */
package io.hpf.server.client;
