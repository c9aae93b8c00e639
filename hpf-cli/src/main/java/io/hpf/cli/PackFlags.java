package io.hpf.cli;

import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.WriterOptions;
import io.hpf.pack.Packer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** How files are packed, shared by the commands that pack (a picocli mixin). */
final class PackFlags {
  @Option(
      names = "--codec",
      paramLabel = "CODEC",
      description =
          "none, lz4 or zstd (default: the archive's; for a new one lz4 on local disk and zstd"
              + " on HDFS and other remote file systems, or zstd with --level or --solid). zstd"
              + " trains a dictionary on the files and stores 1.5-1.9x fewer bytes than lz4; lz4"
              + " reads and packs faster. Entries that do not shrink are stored raw.")
  String codec;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Worker threads (default: number of cores).")
  Integer threads;

  @Option(names = "--follow-symlinks", description = "Follow symbolic links (a loop is an error).")
  boolean followSymlinks;

  @Option(
      names = "--skip-unreadable",
      description = "Skip files that cannot be read and list them at the end, instead of failing.")
  boolean skipUnreadable;

  @Option(
      names = "--group-size",
      paramLabel = "BYTES",
      description =
          "Store small files together in compressed groups of about this many bytes (default:"
              + " the archive's; 2048 for a new one; 0: every file on its own; at most 262144)."
              + " Larger groups make archives of tiny files smaller and random reads of them"
              + " slower. With --codec none, no groups.")
  Integer groupBytes;

  @Option(
      names = "--group-max",
      paramLabel = "BYTES",
      description =
          "Files up to this size go into groups (default: the archive's; 512 for a new one).")
  Integer groupEntryMaxBytes;

  @Option(
      names = "--level",
      paramLabel = "N",
      description =
          "zstd level, 1 to 19 (default: the archive's; 3 for a new one); a new archive is"
              + " then zstd. Higher levels pack slower and smaller; reads are as fast.")
  Integer level;

  @Option(
      names = "--solid",
      description =
          "Pack for size: zstd level "
              + WriterOptions.SOLID_ZSTD_LEVEL
              + " and groups of "
              + WriterOptions.SOLID_GROUP_BYTES
              + " bytes of files up to "
              + WriterOptions.SOLID_GROUP_ENTRY_MAX_BYTES
              + " (each unless set by its own flag). A random read of a grouped file then"
              + " decodes its whole group.")
  boolean solid;

  /**
   * The writer options these flags set, on top of {@code builder}: what they do not say is the
   * archive's (its manifest keeps codec, groups and level), or the defaults for a new archive.
   */
  WriterOptions.Builder apply(WriterOptions.Builder builder) {
    PackingRequest request = request();
    try {
      return request.applyTo(builder);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command.commandLine(), e.getMessage(), e);
    }
  }

  /** The command these flags are part of: a value they cannot take is a usage error (exit 2). */
  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  /** What these flags ask of packing; checked (a level or --solid needs zstd). */
  PackingRequest request() {
    try {
      if (level != null) {
        ArchiveSettings.checkZstdLevel(level);
      }
      if (groupBytes != null || groupEntryMaxBytes != null) {
        // Each against itself here; against the archive's settings when they are resolved.
        int bytes = groupBytes != null ? groupBytes : ArchiveSettings.MAX_GROUP_BYTES;
        ArchiveSettings.checkGroups(bytes, groupEntryMaxBytes != null ? groupEntryMaxBytes : 0);
      }
      return new PackingRequest(
          codec == null ? null : Codec.parse(codec), level, solid, groupBytes, groupEntryMaxBytes);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(command.commandLine(), e.getMessage(), e);
    }
  }

  /** The pack options; {@code trainDictionary} only where a new dictionary can be stored. */
  Packer.Options options(boolean trainDictionary) {
    return new Packer.Options(
        threads == null ? Runtime.getRuntime().availableProcessors() : threads,
        followSymlinks,
        skipUnreadable,
        trainDictionary);
  }
}
