package io.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.testing.ArchiveModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands, run in-process as a user would type them, checked against a model tree. */
class CliTest {
  @TempDir Path temp;
  private Path source;
  private Path archive;
  private TreeMap<String, byte[]> model;

  private static CliRun hpf(Object... args) {
    return CliRun.hpf(args);
  }

  /** A source that is not there, or not a directory, is said once, in one line. */
  @Test
  void aMissingSourceIsSaidOnceInOneLine() throws IOException {
    Path missing = temp.resolve("missing-source");
    Path file = Files.writeString(temp.resolve("missing-source-plain.txt"), "x");
    CliRun create = hpf("create", temp.resolve("missing-source-m.hpf"), missing);
    assertEquals(1, create.code());
    assertEquals("hpf: " + missing + ": no such file or directory\n", create.err());
    CliRun notDirectory = hpf("create", temp.resolve("missing-source-n.hpf"), file);
    assertEquals("hpf: " + file + ": not a directory\n", notDirectory.err());
    Path archive = temp.resolve("missing-source-a.hpf");
    CliRun made =
        hpf("create", archive, Files.createDirectories(temp.resolve("missing-source-tree")));
    assertEquals(0, made.code(), made.err());
    CliRun add = hpf("add", archive, missing);
    assertEquals(1, add.code());
    assertEquals("hpf: " + missing + ": no such file or directory\n", add.err());
  }

  @BeforeEach
  void createArchive() throws IOException {
    source = temp.resolve("src");
    model = ArchiveModel.random(300, 21);
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      Path file = source.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue());
    }
    archive = temp.resolve("a.hpf");
    CliRun create = hpf("create", "--threads", 2, archive, source);
    assertEquals(0, create.code(), create.err());
    assertTrue(create.text().contains("300 entries"), create.text());
  }

  /**
   * Issue 27's reproduction, as typed: files removed with {@code rm} (the automatic reclaim leaves
   * their part for the grace period), then {@code add}, {@code recover}, and {@code rm --prefix ''}
   * of everything: no removed file comes back.
   */
  @Test
  void removedFilesStayRemovedThroughAddAndRecover() throws IOException {
    Path two = temp.resolve("two");
    Files.createDirectories(two);
    Files.writeString(two.resolve("a"), "content of a");
    Files.writeString(two.resolve("b"), "content of b");
    Path other = temp.resolve("other");
    Files.createDirectories(other);
    Files.writeString(other.resolve("c"), "content of c");
    Path r = temp.resolve("r.hpf");
    assertEquals(0, hpf("create", r, two).code());
    assertEquals(0, hpf("rm", r, "a", "b").code());
    CliRun add = hpf("add", r, other);
    assertEquals(0, add.code(), add.err());
    assertFalse(add.text().contains("recovered"), add.text());
    CliRun recover = hpf("recover", r);
    assertEquals(0, recover.code(), recover.err());
    for (String gone : List.of("a", "b")) {
      CliRun cat = hpf("cat", r, gone);
      assertEquals(1, cat.code(), gone + " came back: " + cat.text());
    }
    assertEquals(0, hpf("rm", "--prefix", "", r).code());
    assertEquals(0, hpf("add", r, two).code());
    assertEquals(0, hpf("rm", r, "a", "b").code());
    assertEquals(0, hpf("add", r, other).code()); // c, removed with everything, added again
    CliRun ls = hpf("ls", r);
    assertEquals(0, ls.code(), ls.err());
    assertEquals("c\n", ls.text());
  }

  @Test
  void catWritesExactBytes() {
    for (String name : List.of(model.firstKey(), model.lastKey())) {
      CliRun cat = hpf("cat", archive, name);
      assertEquals(0, cat.code(), cat.err());
      assertArrayEquals(model.get(name), cat.out());
    }
  }

  @Test
  void plainCatLineAnswersAsPicocliDoes() throws IOException {
    // `cat ARCHIVE NAME...` alone is set up without picocli (start-up time); a -D option sends
    // the same request through picocli. Both must give the same bytes, errors and exit codes.
    String first = model.firstKey();
    String last = model.lastKey();
    Path damaged = temp.resolve("damaged.hpf");
    Files.createDirectories(damaged);
    Path missingFile = temp.resolve("nowhere.hpf");
    List<List<Object>> lines =
        List.of(
            List.of(archive, first, last),
            List.of(archive, first, "missing", last),
            List.of(archive, "../escape"),
            List.of(missingFile, first),
            List.of(damaged, first));
    for (List<Object> line : lines) {
      Object[] plain = new Object[line.size() + 1];
      plain[0] = "cat";
      Object[] parsed = new Object[line.size() + 3];
      parsed[0] = "cat";
      parsed[1] = "-D";
      parsed[2] = "hpf.test=1";
      for (int i = 0; i < line.size(); i++) {
        plain[i + 1] = line.get(i);
        parsed[i + 3] = line.get(i);
      }
      assertTrue(CatCommand.ofPlainLine(strings(plain), System.out) != null, line.toString());
      assertTrue(CatCommand.ofPlainLine(strings(parsed), System.out) == null, line.toString());
      CliRun direct = hpf(plain);
      CliRun picocli = hpf(parsed);
      assertEquals(picocli.code(), direct.code(), line.toString());
      assertArrayEquals(picocli.out(), direct.out(), line.toString());
      assertEquals(picocli.err(), direct.err(), line.toString());
    }
    CliRun both = hpf("cat", archive, first, last);
    byte[] expected = new byte[model.get(first).length + model.get(last).length];
    System.arraycopy(model.get(first), 0, expected, 0, model.get(first).length);
    System.arraycopy(model.get(last), 0, expected, model.get(first).length, model.get(last).length);
    assertArrayEquals(expected, both.out());
    CliRun missing = hpf("cat", archive, first, "missing");
    assertEquals(1, missing.code());
    assertTrue(
        missing.err().startsWith("hpf: ") && missing.err().contains("missing"), missing.err());
    // Help, @files and names that look like options stay picocli's.
    assertTrue(CatCommand.ofPlainLine(new String[] {"cat", "--help", "x"}, System.out) == null);
    assertTrue(CatCommand.ofPlainLine(new String[] {"cat", "a.hpf", "@names"}, System.out) == null);
    assertTrue(CatCommand.ofPlainLine(new String[] {"ls", "a.hpf", "x"}, System.out) == null);
  }

  private static String[] strings(Object[] args) {
    return java.util.Arrays.stream(args).map(String::valueOf).toArray(String[]::new);
  }

  @Test
  void lsListsInOrderWithPrefixAndJson() {
    CliRun ls = hpf("ls", archive);
    assertEquals(String.join("\n", model.keySet()) + "\n", ls.text());
    String prefix = model.firstKey().substring(0, 2);
    List<String> expected = model.keySet().stream().filter(n -> n.startsWith(prefix)).toList();
    assertEquals(expected, hpf("ls", archive, prefix).text().lines().toList());
    List<String> json = hpf("ls", "--json", archive, prefix).text().lines().toList();
    assertEquals(expected.size(), json.size());
    assertTrue(json.get(0).startsWith("{\"name\":"), json.get(0));
    assertTrue(json.get(0).contains("\"length\":" + model.get(expected.get(0)).length));
  }

  @Test
  void getExtractsNamedEntriesAndReportsMissingOnes() throws IOException {
    Path out = temp.resolve("got");
    String name = model.lastKey();
    CliRun get = hpf("get", archive, name, "not/there", "-o", out);
    assertEquals(1, get.code());
    assertTrue(get.err().contains("not found: 'not/there'"), get.err());
    assertArrayEquals(model.get(name), Files.readAllBytes(out.resolve(name)));
  }

  @Test
  void extractRecreatesTheTree() throws IOException {
    Path out = temp.resolve("x");
    CliRun extract = hpf("extract", archive, out);
    assertEquals(0, extract.code(), extract.err());
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), Files.readAllBytes(out.resolve(e.getKey())), e.getKey());
      assertEquals(
          Files.getLastModifiedTime(source.resolve(e.getKey())).toMillis(),
          Files.getLastModifiedTime(out.resolve(e.getKey())).toMillis());
    }
    // Again into the same directory: its files are not overwritten unless asked.
    String first = model.firstKey();
    Files.writeString(out.resolve(first), "changed here");
    CliRun again = hpf("extract", archive, out);
    assertEquals(1, again.code());
    assertTrue(
        again.err().contains("already there") && again.err().contains("--overwrite"), again.err());
    assertEquals("changed here", Files.readString(out.resolve(first)));
    assertEquals(0, hpf("extract", "--overwrite", archive, out).code());
    assertArrayEquals(model.get(first), Files.readAllBytes(out.resolve(first)));
  }

  @Test
  void modesAreRecordedAsTarDoesAndRestored() throws IOException {
    Path tree = temp.resolve("modes");
    Map<String, String> modes =
        Map.of(
            "run.sh", "rwxr-xr-x", "secret", "rw-------", "group", "rw-r-----", "ro", "r--r--r--");
    for (Map.Entry<String, String> e : modes.entrySet()) {
      Path file = Files.writeString(Files.createDirectories(tree).resolve(e.getKey()), e.getKey());
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(e.getValue()));
    }
    // Set-user-id, as tar records it (mode 04755).
    Path setuid = Files.writeString(tree.resolve("setuid"), "s");
    Files.setAttribute(setuid, "unix:mode", 04755);
    Path modesArchive = temp.resolve("modes.hpf");
    assertEquals(0, hpf("create", modesArchive, tree).code());
    CliRun ls = hpf("ls", "--json", modesArchive);
    assertTrue(ls.text().contains("\"mode\":" + 04755 + ","), ls.text());
    Path out = temp.resolve("modes-out");
    CliRun extract = hpf("extract", modesArchive, out);
    assertEquals(0, extract.code(), extract.err());
    for (Map.Entry<String, String> e : modes.entrySet()) {
      int mode = Integer.parseInt(toOctal(e.getValue()), 8);
      assertTrue(ls.text().contains("\"mode\":" + mode), e.getKey() + " in " + ls.text());
      assertEquals(
          e.getValue(),
          PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve(e.getKey()))),
          e.getKey());
    }
  }

  @Test
  void anArchiveInsideItsSourceTreeDoesNotPackItself() throws IOException {
    Path inside = source.resolve("sub/self.hpf");
    CliRun create = hpf("create", inside, source);
    assertEquals(0, create.code(), create.err());
    assertTrue(create.err().contains(inside + ": the archive being written"), create.err());
    CliRun add = hpf("add", "--prefix", "again/", inside, source);
    assertEquals(0, add.code(), add.err());
    List<String> names = hpf("ls", inside).text().lines().toList();
    List<String> expected = new java.util.ArrayList<>(model.keySet());
    model.keySet().forEach(name -> expected.add("again/" + name));
    expected.sort(io.hpf.testing.ArchiveModel::compareUtf8);
    assertEquals(expected, names);
  }

  @Test
  void aNameIsNeverBothAFileAndADirectory() throws IOException {
    String file = model.firstKey();
    Path more = Files.createDirectories(temp.resolve("more"));
    Files.writeString(more.resolve("x"), "x");
    CliRun under = hpf("add", "--prefix", file + "/", archive, more);
    assertEquals(1, under.code(), under.err());
    assertEquals(
        "hpf: "
            + archive
            + ": '"
            + file
            + "' and '"
            + file
            + "/x' cannot both be entries: a name cannot be a file and a directory at once\n",
        under.err());
    String nested = model.keySet().stream().filter(n -> n.contains("/")).findFirst().orElseThrow();
    String directory = nested.substring(0, nested.indexOf('/'));
    Path one =
        Files.writeString(Files.createDirectories(temp.resolve("one")).resolve(directory), "f");
    CliRun over = hpf("add", archive, one);
    assertEquals(1, over.code(), over.err());
    assertTrue(over.err().contains("cannot both be entries"), over.err());
    assertEquals(List.copyOf(model.keySet()), hpf("ls", archive).text().lines().toList());
  }

  @Test
  void badValuesAreUsageErrorsAndHelpListsEveryCommandInWholeSentences() throws IOException {
    Path out = temp.resolve("never.hpf");
    for (Object[] line :
        new Object[][] {
          {"create", "--codec", "gzip", out, source},
          {"create", "--level", "25", out, source},
          {"add", "--group-size", "-5", archive, source},
          {"rm", archive}
        }) {
      CliRun r = hpf(line);
      assertEquals(2, r.code(), java.util.Arrays.toString(line) + ": " + r.err());
      assertTrue(r.err().contains("Try 'hpf " + line[0] + " --help'"), r.err());
    }
    assertFalse(Files.exists(out));
    assertTrue(hpf("rm", archive).err().startsWith("hpf: which entries?"));

    String help = hpf("--help").text();
    String commands = help.substring(help.indexOf("Commands:"), help.indexOf("Examples:"));
    List<String> rows = new java.util.ArrayList<>();
    for (String row : commands.lines().skip(1).toList()) {
      if (row.isBlank()) {
        continue;
      }
      if (row.startsWith("   ")) { // a row's text continued
        rows.set(rows.size() - 1, rows.get(rows.size() - 1) + " " + row.strip());
      } else {
        rows.add(row.strip());
      }
    }
    List<String> names = rows.stream().map(r -> r.substring(0, r.indexOf(' '))).toList();
    for (String name :
        List.of(
            "create",
            "add",
            "rm",
            "cat",
            "serve",
            "mount",
            "umount",
            "mapreduce",
            "spark-pack",
            "bench",
            "classpath")) {
      assertTrue(names.contains(name), name + " in " + names);
    }
    for (String row : rows) {
      assertTrue(row.endsWith(".") || row.endsWith(".)"), "a whole sentence: " + row);
    }
  }

  @Test
  void hadoopsShellReadsInsideArchivesWithoutAHadoopInstallation() {
    String root = // a directory's URI ends in '/'
        io.hpf.hadoop.fs.ArchivePath.hpfUri(archive.toUri(), "").toString().replaceAll("/$", "");
    String name = model.lastKey();
    CliRun cat = hpf("fs", "-cat", root + "/" + name);
    assertEquals(0, cat.code(), cat.err());
    assertArrayEquals(model.get(name), cat.out());
    assertEquals("", cat.err(), "nothing but the content");
    CliRun ls = hpf("fs", "-ls", "-R", root);
    assertEquals(0, ls.code(), ls.err());
    for (String entry : model.keySet()) {
      assertTrue(ls.text().contains(root + "/" + entry + "\n"), entry);
    }
    CliRun missing = hpf("fs", "-cat", root + "/no/such/entry");
    assertEquals(1, missing.code());
    assertTrue(missing.err().contains("No such file or directory"), missing.err());
  }

  @Test
  void recoverSaysWhenAnotherCommandRecovered() throws IOException {
    CliRun nothing = hpf("recover", archive);
    assertEquals(0, nothing.code(), nothing.err());
    assertTrue(
        nothing.text().startsWith(archive + ": nothing to recover (generation 1)"), nothing.text());
  }

  @Test
  void symbolicLinksAreSkippedAlikeByCreateAndAnalyzeAndARootLinkIsFollowed() throws IOException {
    Path tree = temp.resolve("links");
    Files.createDirectories(tree.resolve("d"));
    Files.writeString(tree.resolve("d/real.txt"), "real");
    Files.writeString(tree.resolve("top.txt"), "top");
    Files.createSymbolicLink(tree.resolve("link.txt"), tree.resolve("top.txt"));
    Files.createSymbolicLink(tree.resolve("linked-dir"), tree.resolve("d"));
    Path viaLink = Files.createSymbolicLink(temp.resolve("tree-link"), tree);
    for (Path root : List.of(tree, viaLink)) {
      Path out = temp.resolve("links-" + root.getFileName() + ".hpf");
      CliRun create = hpf("create", out, root);
      assertEquals(0, create.code(), create.err());
      assertEquals(List.of("d/real.txt", "top.txt"), hpf("ls", out).text().lines().toList());
      assertTrue(create.err().contains("link.txt: symbolic link"), create.err());
      CliRun analyze = hpf("analyze", "--json", root);
      assertEquals(0, analyze.code(), analyze.err());
      assertTrue(analyze.text().contains("\"files\":2,"), "what create packs: " + analyze.text());
    }
  }

  /** "rwxr-x---" as octal digits. */
  private static String toOctal(String permissions) {
    StringBuilder digits = new StringBuilder();
    for (int i = 0; i < 9; i += 3) {
      int digit = 0;
      for (int j = 0; j < 3; j++) {
        digit = digit * 2 + (permissions.charAt(i + j) == '-' ? 0 : 1);
      }
      digits.append(digit);
    }
    return digits.toString();
  }

  @Test
  void extractionRefusesEscapingNames() throws IOException {
    ExtractTarget target = new ExtractTarget(temp.resolve("safe"));
    for (String bad : List.of("../evil", "a/../../evil", "/etc/passwd", "C:/x", "a//b", "")) {
      assertTrue(target.refusal(bad) != null, bad);
    }
    assertEquals(null, target.refusal("a/b"));
  }

  @Test
  void infoAndVerify() {
    CliRun info = hpf("info", "--json", archive);
    assertEquals(0, info.code());
    assertTrue(info.text().contains("\"entries\":300"), info.text());
    CliRun verify = hpf("verify", archive);
    assertEquals(0, verify.code(), verify.err());
    assertTrue(verify.text().startsWith("OK: 300 entries"), verify.text());
  }

  @Test
  void verifyFailsWithExitOneNamingTheDamagedFile() throws IOException {
    Path part = archive.resolve("part-00000001.hpfp");
    byte[] bytes = Files.readAllBytes(part);
    bytes[bytes.length / 2] ^= 0x40;
    Files.write(part, bytes);
    CliRun verify = hpf("verify", archive);
    assertEquals(1, verify.code());
    assertTrue(verify.err().contains("part-00000001.hpfp"), verify.err());
  }

  @Test
  void exitCodes() {
    assertEquals(1, hpf("cat", archive, "missing").code());
    CliRun usage = hpf("cat", archive);
    assertEquals(2, usage.code());
    assertTrue(usage.err().contains("Missing required parameter"), usage.err());
    assertEquals(2, hpf("frobnicate").code());
    assertEquals(2, hpf("create", "--codec").code());
    CliRun badCodec = hpf("create", "--codec", "gzip", temp.resolve("b.hpf"), source);
    assertEquals(2, badCodec.code());
    assertTrue(badCodec.err().contains("unknown codec 'gzip'"), badCodec.err());
    assertFalse(Files.exists(temp.resolve("b.hpf")), "a failed create leaves no directory");
    CliRun exists = hpf("create", archive, source);
    assertEquals(1, exists.code());
    assertTrue(exists.err().contains("already an archive"), exists.err());
    CliRun notArchive = hpf("ls", source);
    assertEquals(1, notArchive.code());
    assertTrue(notArchive.err().contains("not an hpf archive"), notArchive.err());
    assertFalse(notArchive.err().contains("Exception"), "no stack trace: " + notArchive.err());
  }

  /** Small files share groups by default, none with --group-size 0; a bad size is one line. */
  @Test
  void groupSizesAreChosenOnTheCommandLine() throws IOException {
    long smallFiles = model.values().stream().filter(v -> v.length <= 512).count();
    assertTrue(smallFiles > 10, smallFiles + " small files");
    assertEquals(smallFiles, membersOfGroups(archive));
    long listedAsMembers =
        hpf("ls", "--json", archive).text().lines().filter(l -> l.contains("\"members\":")).count();
    assertEquals(smallFiles, listedAsMembers, "ls --json says which entries are in groups");
    Path plain = temp.resolve("plain.hpf");
    assertEquals(0, hpf("create", "--group-size", 0, plain, source).code());
    assertEquals(0, membersOfGroups(plain));
    Path large = temp.resolve("large.hpf");
    CliRun create = hpf("create", "--group-size", 65536, "--group-max", 8192, large, source);
    assertEquals(0, create.code(), create.err());
    long under8k = model.values().stream().filter(v -> v.length <= 8192).count();
    assertEquals(under8k, membersOfGroups(large));
    for (String name : List.of(model.firstKey(), model.lastKey())) {
      assertArrayEquals(model.get(name), hpf("cat", large, name).out());
    }
    CliRun tooLarge = hpf("create", "--group-size", 1 << 20, temp.resolve("x.hpf"), source);
    assertEquals(2, tooLarge.code()); // a usage error
    assertTrue(tooLarge.err().contains("group size must be 0 to 262144"), tooLarge.err());
    assertEquals(2, tooLarge.err().strip().lines().count(), tooLarge.err()); // and "Try ..."
  }

  /**
   * --solid packs with zstd level 10 and groups of 256 KiB of files up to 64 KiB, each overridable;
   * later adds keep the level; a level zstd-less or out of range is one line.
   */
  @Test
  void solidAndLevelArePackingChoicesTheArchiveKeeps() throws IOException {
    Path solid = temp.resolve("solid.hpf");
    CliRun create = hpf("create", "--solid", solid, source);
    assertEquals(0, create.code(), create.err());
    String info = hpf("info", "--json", solid).text();
    assertTrue(
        info.contains(
            "\"codec\":\"zstd\",\"groupBytes\":262144,\"groupEntryMaxBytes\":65536,\"zstdLevel\":10"),
        info);
    long under64k = model.values().stream().filter(v -> v.length <= 65536).count();
    assertEquals(under64k, membersOfGroups(solid));
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), hpf("cat", solid, e.getKey()).out(), e.getKey());
    }
    Path text =
        Files.writeString(temp.resolve("later.txt"), "added later, added later\n".repeat(99));
    CliRun add = hpf("add", solid, text);
    assertEquals(0, add.code(), add.err());
    assertEquals("", add.err(), "the archive's level and groups kept");
    assertTrue(hpf("info", solid).text().contains("new entries zstd level 10, groups of 262144"));
    Path level = temp.resolve("level.hpf");
    assertEquals(
        0, hpf("create", "--solid", "--level", 5, "--group-size", 0, level, source).code());
    assertTrue(hpf("info", "--json", level).text().contains("\"groupBytes\":0,"));
    assertTrue(hpf("info", "--json", level).text().contains("\"zstdLevel\":5"));
    String[][] refused = {
      {"--solid", "--codec", "lz4"}, {"--level", "25"}, {"--codec", "none", "--level", "9"}
    };
    String[] messages = {
      "solid packing and zstd levels need the zstd codec, not lz4",
      "zstd level must be 1 to 19: 25",
      "solid packing and zstd levels need the zstd codec, not none"
    };
    for (int i = 0; i < refused.length; i++) {
      List<Object> args = new java.util.ArrayList<>(List.of("create"));
      args.addAll(List.of(refused[i]));
      args.addAll(List.of(temp.resolve("refused-" + i + ".hpf"), source));
      CliRun run = hpf(args.toArray());
      assertEquals(2, run.code(), run.err()); // usage errors
      assertTrue(run.err().lines().findFirst().orElse("").contains(messages[i]), run.err());
      assertEquals(2, run.err().strip().lines().count(), run.err()); // and "Try ..."
    }
  }

  /**
   * A new archive is lz4 without a dictionary; a level alone makes it zstd with one; a level asked
   * of the lz4 archive later is refused in one line rather than silently ignored.
   */
  @Test
  void aNewArchiveIsLz4AndALevelAloneMakesItZstd() throws IOException {
    Path plain = temp.resolve("default.hpf");
    assertEquals(0, hpf("create", plain, source).code());
    String info = hpf("info", "--json", plain).text();
    assertTrue(info.contains("\"codec\":\"lz4\",\"groupBytes\":2048,"), info);
    assertTrue(info.contains("\"dictionaryBytes\":0"), info);
    String shown = hpf("info", plain).text();
    assertTrue(shown.lines().anyMatch(l -> l.matches("codecs {7}(none \\d+, )?lz4 \\d+")), shown);
    Path level = temp.resolve("level7.hpf");
    assertEquals(0, hpf("create", "--level", 7, level, source).code());
    String zstd = hpf("info", "--json", level).text();
    assertTrue(zstd.contains("\"codec\":\"zstd\",\"groupBytes\":2048,"), zstd);
    assertTrue(zstd.contains("\"zstdLevel\":7"), zstd);
    assertFalse(zstd.contains("\"dictionaryBytes\":0"), zstd);
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), hpf("cat", plain, e.getKey()).out(), e.getKey());
      assertArrayEquals(e.getValue(), hpf("cat", level, e.getKey()).out(), e.getKey());
    }
    Path text = Files.writeString(temp.resolve("later.txt"), "later\n".repeat(50));
    CliRun add = hpf("add", "--level", 5, plain, text);
    assertEquals(1, add.code(), add.err());
    assertTrue(
        add.err()
            .contains(
                "a zstd level needs the zstd codec; this archive's new entries are lz4 (ask for"
                    + " zstd with it)"),
        add.err());
    assertEquals(1, add.err().strip().lines().count(), add.err());
  }

  private static long membersOfGroups(Path archive) throws IOException {
    try (var reader = io.hpf.archive.ArchiveReader.open(io.hpf.store.LocalStorage.open(archive))) {
      long members = 0;
      for (var it = reader.list(""); it.hasNext(); ) {
        members += it.next().inGroup() ? 1 : 0;
      }
      return members;
    }
  }

  @Test
  void addStoresEntriesAsTheArchiveWasCreatedUnlessTold() throws IOException {
    Path raw = temp.resolve("raw.hpf");
    assertEquals(0, hpf("create", "--codec", "none", raw, source).code());
    Path text =
        Files.writeString(temp.resolve("text.txt"), "compress me, compress me\n".repeat(200));
    CliRun add = hpf("add", raw, text);
    assertEquals(0, add.code(), add.err());
    assertEquals("", add.err(), "no setting changed");
    assertTrue(hpf("ls", "--json", raw, "text.txt").text().contains("\"codec\":\"none\""));
    assertTrue(hpf("info", raw).text().contains("new entries none"), hpf("info", raw).text());
    Path more = Files.writeString(temp.resolve("more.txt"), "and me, and me\n".repeat(200));
    CliRun lz4 = hpf("add", "--codec", "lz4", raw, more);
    assertEquals(0, lz4.code(), lz4.err());
    assertTrue(
        lz4.err().contains("none, groups of 2048 bytes of entries up to 512 -> lz4"), lz4.err());
    assertTrue(hpf("ls", "--json", raw, "more.txt").text().contains("\"codec\":\"lz4\""));
    assertTrue(hpf("info", "--json", raw).text().contains("\"codec\":\"lz4\""));
  }

  @Test
  void addRmCompactRecoverAndLog() throws IOException {
    Path more = temp.resolve("more");
    Files.createDirectories(more.resolve("sub"));
    Files.write(more.resolve("sub/new.txt"), new byte[] {5, 6});
    Path single = Files.write(temp.resolve("single.bin"), new byte[] {7});
    CliRun add = hpf("add", "--prefix", "x/", archive, more, single);
    assertEquals(0, add.code(), add.err());
    assertArrayEquals(new byte[] {5, 6}, hpf("cat", archive, "x/sub/new.txt").out());
    assertArrayEquals(new byte[] {7}, hpf("cat", archive, "x/single.bin").out());

    CliRun again = hpf("add", "--prefix", "x/", archive, single);
    assertEquals(1, again.code());
    assertTrue(
        again.err().contains("already has 1 of the added names ('x/single.bin')"), again.err());
    Files.write(single, new byte[] {8});
    assertEquals(0, hpf("add", "--replace", "--prefix", "x/", archive, single).code());
    assertArrayEquals(new byte[] {8}, hpf("cat", archive, "x/single.bin").out());

    String victim = model.firstKey();
    assertEquals(0, hpf("rm", archive, victim).code());
    assertEquals(1, hpf("cat", archive, victim).code());
    CliRun missing = hpf("rm", archive, "no/such");
    assertEquals(1, missing.code());
    assertTrue(missing.err().contains("not found: 'no/such'"), missing.err());
    assertEquals(0, hpf("rm", "--prefix", "x/", archive).code());
    assertEquals(2, hpf("rm", archive).code(), "names or --prefix is required");

    CliRun compact = hpf("compact", "--reclaim", archive);
    assertEquals(0, compact.code(), compact.err());
    assertTrue(compact.text().contains("to 1"), compact.text());
    assertEquals(0, hpf("verify", archive).code());
    assertEquals(model.size() - 1, hpf("ls", archive).text().lines().count());

    CliRun recover = hpf("recover", archive);
    assertEquals(0, recover.code(), recover.err());
    assertTrue(recover.text().contains("nothing to recover"), recover.text());
    List<String> log = hpf("log", archive).text().lines().toList();
    assertTrue(log.size() >= 6, log.toString());
    assertTrue(log.get(0).contains("create 300 entries"), log.get(0));
    assertTrue(log.get(log.size() - 1).contains("compact --reclaim"), log.toString());
  }

  @Test
  void aSecondWriterSeesTheLockHolder() throws IOException {
    Files.writeString(archive.resolve("hpf.lock"), "host elsewhere, pid 42, since yesterday");
    CliRun locked = hpf("add", archive, source);
    assertEquals(1, locked.code());
    assertTrue(locked.err().contains("host elsewhere, pid 42"), locked.err());
    assertTrue(locked.err().contains("--break-lock"), locked.err());
    assertEquals(0, hpf("recover", "--break-lock", archive).code());
  }

  /**
   * A writer of this host killed while it held the lock: the next command takes the lock over by
   * itself, says so in one line, and recovers what the writer left, as any open does.
   */
  @Test
  void theLockOfAWriterOfThisHostThatDiedIsTakenOver() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String stale =
        "host "
            + java.net.InetAddress.getLocalHost().getHostName()
            + ", pid "
            + gone.pid()
            + ", since "
            + java.time.Instant.now();
    Files.writeString(archive.resolve("hpf.lock"), stale);
    Path more = Files.createDirectories(temp.resolve("more-after-a-dead-writer"));
    Files.writeString(more.resolve("late.txt"), "late");
    CliRun add = hpf("add", archive, more);
    assertEquals(0, add.code(), add.err());
    assertEquals(
        List.of(
            "hpf: took over the lock of a writer that died ("
                + stale
                + "); what it left is"
                + " recovered as on any open"),
        add.err().lines().toList());
    assertFalse(Files.exists(archive.resolve("hpf.lock")));
    assertEquals("late", hpf("cat", archive, "late.txt").text());
  }

  /**
   * The README's first command, run again: create refuses an archive that is there, saying how to
   * replace it; --overwrite replaces an archive (never a directory that is not one, nor one a
   * writer holds) by renaming the complete new one over it.
   */
  @Test
  void createOverwriteReplacesAnArchiveAndNothingElse() throws Exception {
    CliRun again = hpf("create", archive, source);
    assertEquals(1, again.code());
    assertTrue(
        again.err().contains("already an archive (create --overwrite replaces it"), again.err());
    Path other = Files.createDirectories(temp.resolve("other-tree"));
    Files.writeString(other.resolve("only.txt"), "only");
    CliRun replaced = hpf("create", "--overwrite", archive, other);
    assertEquals(0, replaced.code(), replaced.err());
    assertEquals(List.of("only.txt"), hpf("ls", archive).text().lines().toList());
    assertEquals(0, hpf("verify", archive).code());
    try (var left = Files.list(archive.getParent())) {
      assertTrue(
          left.noneMatch(p -> p.getFileName().toString().startsWith(".")), "no staging left");
    }
    Path plain = Files.createDirectories(temp.resolve("plain-dir"));
    Files.writeString(plain.resolve("keep.txt"), "keep");
    CliRun refused = hpf("create", "--overwrite", plain, other);
    assertEquals(1, refused.code());
    assertTrue(refused.err().contains("not an archive"), refused.err());
    assertEquals("keep", Files.readString(plain.resolve("keep.txt")));
    Files.writeString(archive.resolve("hpf.lock"), "host elsewhere, pid 1, since then");
    CliRun held = hpf("create", "--overwrite", archive, source);
    assertEquals(1, held.code());
    assertTrue(held.err().contains("lock"), held.err());
    Path fresh = temp.resolve("fresh-overwrite.hpf");
    assertEquals(0, hpf("create", "--overwrite", fresh, other).code(), "nothing there: created");
  }

  /**
   * A compaction the policy runs after a commit is told apart in the log ("auto-compact"); the
   * command that committed reports its own generation; a compaction with nothing to do commits
   * nothing.
   */
  @Test
  void policyCompactionsAreNamedAndNothingToDoCommitsNothing() throws Exception {
    Path tree = Files.createDirectories(temp.resolve("ten"));
    for (int i = 0; i < 10; i++) {
      Files.writeString(tree.resolve("f" + i + ".txt"), ("content " + i + "\n").repeat(200));
    }
    Path small = temp.resolve("ten.hpf");
    assertEquals(0, hpf("create", small, tree).code());
    CliRun rm = hpf("rm", "--prefix", "f", small); // every entry dead: the policy reclaims
    assertEquals(0, rm.code(), rm.err());
    assertTrue(rm.text().contains(": generation 2, 0 entries left"), rm.text());
    CliRun one = hpf("create", temp.resolve("one.hpf"), tree);
    assertEquals(0, one.code());
    CliRun rmOne = hpf("rm", temp.resolve("one.hpf"), "f1.txt");
    assertTrue(rmOne.text().startsWith("deleted 1 entry from "), rmOne.text());
    List<String> log = hpf("log", small).text().lines().toList();
    for (String line : log) { // columns of fixed width, the operation last at column 52
      assertTrue(
          line.matches(
              "^ *\\d+  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z  +\\d+ entr(y|ies)  \\S.*"),
          line);
      assertTrue(line.substring(34, 50).strip().matches("\\d+ entr(y|ies)"), line);
      assertTrue(line.startsWith("  ", 50) && line.charAt(52) != ' ', line);
    }
    assertTrue(log.get(log.size() - 1).contains("auto-compact --reclaim"), log.toString());
    assertTrue(log.get(log.size() - 2).contains("rm"), log.toString());
    int generations = log.size();
    for (String[] args : List.of(new String[] {"compact"}, new String[] {"compact", "--reclaim"})) {
      List<Object> command = new ArrayList<>(List.of((Object[]) args));
      command.add(small);
      CliRun nothing = hpf(command.toArray());
      assertEquals(0, nothing.code(), nothing.err());
      assertTrue(nothing.text().contains("nothing to compact"), nothing.text());
    }
    assertEquals(generations, hpf("log", small).text().lines().count(), "nothing committed");
  }

  @Test
  void helpShowsExamples() {
    for (String command :
        List.of(
            "create",
            "ls",
            "cat",
            "get",
            "extract",
            "info",
            "verify",
            "add",
            "rm",
            "compact",
            "recover",
            "log",
            "classpath",
            "fs")) {
      CliRun help = hpf(command, "--help");
      assertEquals(0, help.code(), command + ": " + help.err());
      assertTrue(help.text().contains("Examples:"), command);
    }
  }

  @Test
  void aSchemeWithoutItsConnectorIsOneLineNamingWhatToAdd() {
    CliRun gs = hpf("ls", "gs://bucket/x.hpf");
    assertEquals(1, gs.code());
    assertEquals(
        "hpf: gs://bucket/x.hpf: no file system for 'gs://' on the classpath (Google Cloud"
            + " Storage needs the gcs-connector jar: add it with HPF_CLASSPATH)\n",
        gs.err());
    CliRun unknown = hpf("ls", "nosuch://h/x.hpf");
    assertEquals(1, unknown.code());
    assertTrue(unknown.err().contains("no file system for 'nosuch://'"), unknown.err());
    assertEquals(1, unknown.err().split("\n").length, unknown.err());
  }
}
