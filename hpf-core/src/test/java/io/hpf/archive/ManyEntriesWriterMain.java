package io.hpf.archive;

import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes {@code count} small entries in one commit, in an order far from the names' (so that every
 * sorted run holds names from all over): run in a JVM of a small heap by {@link
 * SmallHeapWriterTest}. Arguments: the archive's directory, the count; with a third, {@code
 * verify}, verifies the archive instead (exit status 1 and the problems if it has any).
 */
public final class ManyEntriesWriterMain {
  private ManyEntriesWriterMain() {}

  /** The i-th entry's name: a thousand to a directory. */
  static String name(long i) {
    return String.format(Locale.ROOT, "logs/host-%04d/app-%09d.log", i / 1000, i);
  }

  static byte[] content(long i) {
    return ("line " + i + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The i-th entry added: a stride coprime to any count that is not a multiple of 7919. */
  static long added(long i, long count) {
    return (i * 7919) % count;
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 2 && args[2].equals("verify")) {
      VerifyReport report =
          ArchiveVerifier.verify(LocalStorage.open(Path.of(args[0])), ProgressListener.NONE);
      System.out.println(report.entriesChecked() + " entries checked " + report.problems());
      System.exit(report.ok() ? 0 : 1);
    }
    long count = Long.parseLong(args[1]);
    try (ArchiveWriter w =
        ArchiveWriter.create(
            LocalStorage.createDirectories(Path.of(args[0])), WriterOptions.builder().build())) {
      for (long i = 0; i < count; i++) {
        long n = added(i, count);
        w.add(name(n), content(n), EntryMetadata.of(1_700_000_000_000L));
      }
      w.commit();
    }
  }
}
