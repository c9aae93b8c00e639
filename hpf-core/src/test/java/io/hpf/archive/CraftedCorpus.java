package io.hpf.archive;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Crafted archives that Java and Python must judge alike, written into a directory with {@code
 * expected.tsv}: per archive, a line {@code NAME<TAB>ok} or {@code NAME<TAB>problem<TAB>TEXT}, TEXT
 * being what the verdict of each verifier must contain. {@link CraftedCorpusTest} checks the Java
 * verifier against it; {@code python/tests/test_crafted.py} runs this class ({@code main(OUT_DIR)})
 * and checks the Python one.
 */
public final class CraftedCorpus {
  private CraftedCorpus() {}

  /** A case: the archive's directory name and the verdict line. */
  public record Case(String name, String verdict) {}

  public static void main(String[] args) throws IOException {
    write(Path.of(args[0]));
  }

  /** Writes every case under {@code dir} (made if missing); returns them. */
  public static List<Case> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Case> cases = new ArrayList<>();
    new CraftedArchive(dir.resolve("plain.hpf"))
        .addPlain("d/x", bytes("x"))
        .addPlain("d/y", bytes("y"))
        .commit();
    cases.add(new Case("plain.hpf", "ok"));
    // Made before writers refused it: an entry that is also a directory of another.
    new CraftedArchive(dir.resolve("name-clash.hpf"))
        .addPlain("d/x", bytes("the file d/x"))
        .addPlain("d/x-1", bytes("a neighbour between the file and its directory"))
        .addPlain("d/x/y", bytes("under d/x"))
        .addPlain("e", bytes("e"))
        .commit();
    cases.add(new Case("name-clash.hpf", "problem\tentry 'd/x' is also a directory (of 'd/x/y')"));
    // FORMAT.md "Entry": the reserved u16 at offset 46 is 0; only zstd entries name a dictionary.
    byte[] plain = bytes("plain content");
    int crc = io.hpf.format.EntryCodec.crc32c(plain, 0, plain.length);
    new CraftedArchive(dir.resolve("entry-reserved.hpf"))
        .add("x", io.hpf.format.Codec.NONE, plain.length, plain, crc, h -> h[46] = 1)
        .commit();
    cases.add(
        new Case(
            "entry-reserved.hpf", "problem\treserved field at entry header offset 46 is 1, not 0"));
    new CraftedArchive(dir.resolve("dictionary-on-raw.hpf"))
        .add("x", io.hpf.format.Codec.NONE, plain.length, plain, crc, h -> h[12] = 1)
        .commit();
    cases.add(
        new Case(
            "dictionary-on-raw.hpf",
            "problem\tdictionary id 1 on an entry stored with none (only zstd entries name a"
                + " dictionary)"));
    List<String> lines = new ArrayList<>();
    for (Case c : cases) {
      lines.add(c.name() + "\t" + c.verdict());
    }
    Files.write(dir.resolve("expected.tsv"), lines, StandardCharsets.UTF_8);
    return cases;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
