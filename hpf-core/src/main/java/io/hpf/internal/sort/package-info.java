/**
 * Internal: sorting more records than memory holds (an external merge sort: sorted runs on local
 * disk, merged), for checks whose order is not the one stored, such as the verifier's walk of part
 * files in entry order.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.format.
 */
package io.hpf.internal.sort;
