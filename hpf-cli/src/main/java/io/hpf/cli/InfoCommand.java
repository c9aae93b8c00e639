package io.hpf.cli;

import io.hpf.archive.ArchiveInfo;
import io.hpf.archive.ArchiveReader;
import io.hpf.archive.EntryJson;
import io.hpf.archive.model.Codec;
import io.hpf.hadoop.ArchiveCosts;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.NameNodeCost;
import io.hpf.store.Storage;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "info",
    description = {
      "Summarizes an archive: generation, entries, sizes by kind of file,",
      "compression, the shape of the index, and the NameNode objects (files, directories,",
      "blocks) the archive costs against its entries as plain files (150 bytes of NameNode",
      "heap per object; local archives are costed with 128 MiB blocks)."
    },
    footer = {"", "Examples:", "  hpf info photos.hpf", "  hpf info --json photos.hpf"},
    mixinStandardHelpOptions = true)
final class InfoCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Option(names = "--json", description = "One JSON object.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    ArchiveInfo info;
    NameNodeCost archiveCost;
    NameNodeCost plainCost;
    try (Storage opened = storage.open(archive);
        ArchiveReader reader = ArchiveReader.open(opened)) {
      long blockSize =
          opened instanceof HadoopStorage hadoop
              ? hadoop.fileSystem().getDefaultBlockSize(hadoop.directory())
              : NameNodeCost.DEFAULT_BLOCK_SIZE;
      ArchiveCosts.AsFiles asFiles = new ArchiveCosts.AsFiles(blockSize);
      info = ArchiveInfo.of(reader, asFiles); // one pass over the entries for both
      archiveCost = ArchiveCosts.ofArchive(opened, blockSize);
      plainCost = asFiles.cost();
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      String base = toJson(info);
      out.println(
          base.substring(0, base.length() - 1)
              + ",\"nameNode\":"
              + costJson(archiveCost)
              + ",\"nameNodeAsPlainFiles\":"
              + costJson(plainCost)
              + "}");
    } else {
      printText(out, info, archiveCost, plainCost);
    }
    return Main.EXIT_OK;
  }

  /** The summary for people, a line a topic. */
  private void printText(
      PrintWriter out, ArchiveInfo info, NameNodeCost archiveCost, NameNodeCost plainCost) {
    var m = info.manifest();
    out.printf(Locale.ROOT, "archive      %s%n", archive);
    out.printf(
        Locale.ROOT,
        "generation   %d, committed %s (%s)%n",
        m.generation(),
        Instant.ofEpochMilli(m.commitMillis()),
        m.operation());
    out.printf(Locale.ROOT, "entries      %d%n", info.entries());
    out.printf(
        Locale.ROOT,
        "content      %s, stored %s (%.1f%%)%n",
        Format.bytes(info.contentBytes()),
        Format.bytes(info.storedBytes()),
        percent(info.storedBytes(), info.contentBytes()));
    out.printf(
        Locale.ROOT,
        "codecs       %s%n",
        info.entriesByCodec().entrySet().stream()
            .map(e -> e.getKey().displayName() + " " + e.getValue())
            .collect(java.util.stream.Collectors.joining(", ")));
    out.printf(
        Locale.ROOT,
        "settings     %s, buckets of %d records%n",
        m.writerSettings() == null
            ? "not recorded (format version 4 or older; writers use their defaults)"
            : "new entries " + m.writerSettings().describe(),
        info.bucketCapacity());
    out.printf(
        Locale.ROOT,
        "files        %d: %s (%s), %s (%s), %s (%s), %s (%s), 1 manifest%n",
        info.files(),
        Format.count(m.parts().size(), "part", "parts"),
        Format.bytes(info.partBytes()),
        Format.count(info.buckets(), "bucket", "buckets"),
        Format.bytes(info.indexBytes()),
        Format.count(info.segments(), "catalog", "catalogs"),
        Format.bytes(info.catalogBytes()),
        Format.count(info.dictionaries(), "dictionary", "dictionaries"),
        Format.bytes(info.dictionaryBytes()));
    out.printf(
        Locale.ROOT,
        "index        %s, global depth %d, perfect hash %.2f bits/key%n",
        Format.count(info.segments(), "segment", "segments"),
        info.maxGlobalDepth(),
        info.perfectHashBitsPerKey());
    out.printf(Locale.ROOT, "namenode     %s%n", describe(archiveCost));
    out.printf(
        Locale.ROOT,
        "  as files   %s: %s%n",
        describe(plainCost),
        "the archive: " + Format.objectRatio(plainCost.objects(), archiveCost.objects()));
  }

  /** "12 objects (10 files, 1 directory, 1 block), ~1.8 KiB of heap". */
  static String describe(NameNodeCost cost) {
    return String.format(
        Locale.ROOT,
        "%s (%s, %s, %s), ~%s of heap",
        Format.count(cost.objects(), "object", "objects"),
        Format.count(cost.files(), "file", "files"),
        Format.count(cost.directories(), "directory", "directories"),
        Format.count(cost.blocks(), "block", "blocks"),
        Format.bytes(cost.heapBytes()));
  }

  static String costJson(NameNodeCost cost) {
    return String.format(
        Locale.ROOT,
        "{\"files\":%d,\"directories\":%d,\"blocks\":%d,\"objects\":%d,\"heapBytes\":%d}",
        cost.files(),
        cost.directories(),
        cost.blocks(),
        cost.objects(),
        cost.heapBytes());
  }

  private static double percent(long part, long whole) {
    return whole == 0 ? 100.0 : 100.0 * part / whole;
  }

  static String toJson(ArchiveInfo info) {
    var m = info.manifest();
    StringBuilder s = new StringBuilder("{");
    s.append("\"generation\":").append(m.generation());
    s.append(",\"commitMillis\":").append(m.commitMillis());
    s.append(",\"operation\":").append(EntryJson.string(m.operation()));
    s.append(",\"entries\":").append(info.entries());
    if (m.writerSettings() != null) {
      s.append(",\"codec\":").append(EntryJson.string(m.writerSettings().codec().displayName()));
      s.append(",\"groupBytes\":").append(m.writerSettings().groupBytes());
      s.append(",\"groupEntryMaxBytes\":").append(m.writerSettings().groupEntryMaxBytes());
      s.append(",\"zstdLevel\":").append(m.writerSettings().zstdLevel());
    }
    s.append(",\"bucketCapacity\":").append(info.bucketCapacity());
    s.append(",\"contentBytes\":").append(info.contentBytes());
    s.append(",\"storedBytes\":").append(info.storedBytes());
    s.append(",\"files\":").append(info.files());
    s.append(",\"parts\":").append(m.parts().size());
    s.append(",\"partBytes\":").append(info.partBytes());
    s.append(",\"segments\":").append(info.segments());
    s.append(",\"buckets\":").append(info.buckets());
    s.append(",\"indexBytes\":").append(info.indexBytes());
    s.append(",\"catalogBytes\":").append(info.catalogBytes());
    s.append(",\"dictionaryBytes\":").append(info.dictionaryBytes());
    s.append(",\"globalDepth\":").append(info.maxGlobalDepth());
    s.append(
        String.format(
            Locale.ROOT, ",\"perfectHashBitsPerKey\":%.3f", info.perfectHashBitsPerKey()));
    s.append(",\"entriesByCodec\":{");
    boolean first = true;
    for (Map.Entry<Codec, Long> e : info.entriesByCodec().entrySet()) {
      s.append(first ? "" : ",")
          .append(EntryJson.string(e.getKey().displayName()))
          .append(':')
          .append(e.getValue());
      first = false;
    }
    return s.append("}}").toString();
  }
}
