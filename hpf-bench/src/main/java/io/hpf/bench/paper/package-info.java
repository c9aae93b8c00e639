/**
 * The papers' comparisons: hpf against plain files, HAR, MapFile and SequenceFile on generated
 * datasets at several scales, with the catalog's own measurements.
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive, io.hpf.archive.model, io.hpf.bench,
 * io.hpf.hadoop, io.hpf.pack, io.hpf.store, io.hpf.testing.
 */
package io.hpf.bench.paper;
