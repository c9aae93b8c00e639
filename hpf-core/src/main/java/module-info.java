/**
 * hpf-core: the archive format, its readers and writers. Exported: the API (open, read, write,
 * verify), its model (entries, options, results, errors), where files live, packing trees and
 * selecting entries. {@code io.hpf.internal.*} is not exported: a module that requires this one
 * cannot compile against it (hpf-architecture's ModuleBoundaryTest). Engines on the class path
 * (Hadoop, Spark) are held to the same boundary by hpf-architecture's ArchitectureTest.
 */
module io.hpf.core {
  requires com.github.luben.zstd_jni;
  requires org.lz4.java;
  requires java.management; // the lock names its holder by process id

  exports io.hpf.archive;
  exports io.hpf.archive.model;
  exports io.hpf.store;
  exports io.hpf.pack;
  exports io.hpf.select;
}
