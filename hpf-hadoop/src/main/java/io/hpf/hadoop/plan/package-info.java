/**
 * Planning engine tasks over archives: runs of whole entries of one part, about a block each,
 * placed where their bytes are (SFMapReduce's combine splits). Shared by the MapReduce input
 * formats and the Spark source; reads catalogs and block locations only.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.hadoop,
 * io.hpf.hadoop.fs, io.hpf.store.
 */
package io.hpf.hadoop.plan;
