package io.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.CraftedArchive;
import io.hpf.archive.model.Codec;
import io.hpf.testing.ArchiveModel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archives made to hurt: unsafe names, damaged catalogs, lengths that lie. The command answers with
 * right bytes or one line in hpf's words, and extract writes nothing it should not.
 */
class CliSafetyTest {
  @TempDir Path temp;

  /** {@code hpf ARGS} as a process of its own with the heap {@code heap} (-Xmx...). */
  private static ProcessBuilder hpfProcess(String heap, String... args) {
    java.util.List<String> line = new java.util.ArrayList<>();
    line.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    line.add(heap);
    line.add("-cp");
    line.add(System.getProperty("java.class.path"));
    line.add(Main.class.getName());
    line.addAll(java.util.List.of(args));
    return new ProcessBuilder(line).redirectError(ProcessBuilder.Redirect.PIPE);
  }

  private static void assertOneLineInOurWords(CliRun run) {
    String err = run.err();
    assertEquals(1, err.lines().count(), "one line expected: " + err);
    assertTrue(err.startsWith("hpf: "), err);
    for (String internal : new String[] {"java.", "Exception", "\tat ", "io.hpf."}) {
      assertFalse(err.contains(internal), "Java internals in: " + err);
    }
  }

  private Path unsafeArchive() throws IOException {
    Path dir = temp.resolve("unsafe.hpf");
    new CraftedArchive(dir)
        .addPlain("ok/a.txt", "a".getBytes(StandardCharsets.UTF_8))
        .addPlain("../evil.txt", "evil".getBytes(StandardCharsets.UTF_8))
        .addPlain("ok/b.txt", "b".getBytes(StandardCharsets.UTF_8))
        .commit();
    return dir;
  }

  private static long filesUnder(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  /**
   * Every archive of the crafted corpus gets its verdict from {@code hpf verify} run as its own
   * process in a 256 MiB heap (zstd bombs included): exit 0 and "OK", or exit 1 naming the rule.
   */
  /**
   * A damaged group stops neither extract nor get: every readable entry is written, each damaged
   * one named with its place, and the exit code is 1 (as unzip salvages an archive).
   */
  /**
   * {@code cat} of a raw entry of 1 GiB keeps the process small: content is streamed with reads,
   * never mapped (a 3 GiB entry once made a 3.1 GB resident process). Peak resident memory is
   * sampled from /proc while the entry goes through a pipe.
   */
  @Test
  void catOfAGigabyteRawEntryStaysSmallInMemory() throws Exception {
    long size = 1L << 30;
    Path big = temp.resolve("big-raw.hpf");
    try (io.hpf.archive.ArchiveWriter writer =
        io.hpf.archive.ArchiveWriter.create(
            io.hpf.store.LocalStorage.createDirectories(big),
            io.hpf.archive.model.WriterOptions.builder().codec(Codec.NONE).build())) {
      java.io.InputStream zeros =
          new java.io.InputStream() {
            long left = size;

            @Override
            public int read() {
              return left-- > 0 ? 0 : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
              if (left <= 0) {
                return -1;
              }
              int n = (int) Math.min(len, left);
              java.util.Arrays.fill(b, off, off + n, (byte) 0);
              left -= n;
              return n;
            }
          };
      writer.addStream("big", zeros, size, io.hpf.archive.model.EntryMetadata.of(0), "zeros");
      writer.commit();
    }
    Process cat = hpfProcess("-Xmx64m", "cat", big.toString(), "big").start();
    java.util.concurrent.atomic.AtomicLong peakKib = new java.util.concurrent.atomic.AtomicLong();
    Thread sampler =
        new Thread(
            () -> {
              Path status = Path.of("/proc/" + cat.pid() + "/status");
              while (cat.isAlive()) {
                try {
                  for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("VmRSS:")) {
                      long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                      peakKib.accumulateAndGet(kib, Math::max);
                    }
                  }
                  Thread.sleep(10);
                } catch (IOException | InterruptedException | RuntimeException e) {
                  return; // the process ended between two looks
                }
              }
            });
    sampler.start();
    long total = 0;
    byte[] buffer = new byte[1 << 16];
    try (var out = cat.getInputStream()) {
      for (int n; (n = out.read(buffer)) >= 0; ) {
        total += n;
      }
    }
    String err = new String(cat.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, cat.waitFor(), err);
    sampler.join();
    assertEquals(size, total);
    assertTrue(peakKib.get() > 0, "sampled");
    assertTrue(peakKib.get() < 300 << 10, "peak resident " + peakKib.get() / 1024 + " MiB");
  }

  @Test
  void extractAndGetWriteEveryReadableEntryAndNameTheDamagedOnes() throws Exception {
    Path tree = temp.resolve("salvage-src");
    java.util.Map<String, byte[]> files = new java.util.TreeMap<>();
    for (int i = 0; i < 17; i++) {
      String name = "d" + (i % 3) + "/f" + i + ".txt";
      byte[] content = ("file " + i + " ").repeat(5 + i * 40).getBytes(StandardCharsets.UTF_8);
      files.put(name, content);
      Files.createDirectories(tree.resolve(name).getParent());
      Files.write(tree.resolve(name), content);
    }
    Path archive = temp.resolve("salvage.hpf");
    assertEquals(0, CliRun.hpf("create", "--codec", "lz4", archive, tree).code());
    // The first group's stored content gets one flipped byte: its members are damaged.
    String ls = CliRun.hpf("ls", "--json", archive).text();
    java.util.regex.Matcher member =
        java.util.regex.Pattern.compile(
                "\"offset\":(\\d+),\"member\":\\d+,\"members\":([2-9]|\\d\\d)")
            .matcher(ls);
    assertTrue(member.find(), ls);
    long groupOffset = Long.parseLong(member.group(1));
    Path part = archive.resolve("part-00000001.hpfp");
    byte[] bytes = Files.readAllBytes(part);
    bytes[(int) groupOffset + 52 + 3] ^= 0x10;
    Files.write(part, bytes);
    java.util.Set<String> damaged = new java.util.TreeSet<>();
    for (String line : ls.lines().toList()) {
      if (line.contains("\"offset\":" + groupOffset + ",")) {
        damaged.add(line.substring(9, line.indexOf('"', 9)));
      }
    }
    assertTrue(damaged.size() >= 2 && damaged.size() < files.size(), damaged.toString());

    Path out = temp.resolve("salvaged");
    CliRun extract = CliRun.hpf("extract", archive, out);
    assertEquals(1, extract.code(), extract.err());
    for (java.util.Map.Entry<String, byte[]> e : files.entrySet()) {
      if (damaged.contains(e.getKey())) {
        assertFalse(Files.exists(out.resolve(e.getKey())), e.getKey());
        assertTrue(
            extract.err().contains("'" + e.getKey() + "' is damaged, not written: ")
                && extract.err().contains("part-00000001.hpfp"),
            extract.err());
      } else {
        assertArrayEquals(e.getValue(), Files.readAllBytes(out.resolve(e.getKey())), e.getKey());
      }
    }
    assertTrue(extract.text().contains(damaged.size() + " damaged entries not written"));

    Path got = temp.resolve("got");
    List<Object> get = new java.util.ArrayList<>(List.of("get", archive));
    get.addAll(files.keySet());
    get.addAll(List.of("-o", got));
    CliRun getRun = CliRun.hpf(get.toArray());
    assertEquals(1, getRun.code(), getRun.err());
    for (java.util.Map.Entry<String, byte[]> e : files.entrySet()) {
      assertEquals(
          !damaged.contains(e.getKey()),
          Files.exists(got.resolve(e.getKey())),
          e.getKey() + " " + damaged + " " + getRun.err());
    }
  }

  /**
   * A part file cut short (a disk that filled, a copy that stopped) loses the entries past the cut
   * and nothing else: the archive lists, extract writes every other entry and names the lost ones
   * (exit 1), verify names the part, recover says what it cannot do.
   */
  @Test
  void aPartCutShortLosesOnlyTheEntriesPastTheCut() throws Exception {
    java.util.Map<String, byte[]> files = new java.util.TreeMap<>();
    Path first = temp.resolve("cut-src-1");
    Path second = temp.resolve("cut-src-2");
    for (int i = 0; i < 20; i++) {
      Path tree = i < 10 ? first : second;
      String name = "f" + i + ".bin";
      byte[] content = new byte[5000 + 100 * i];
      new java.util.SplittableRandom(i).nextBytes(content);
      files.put(name, content);
      Files.createDirectories(tree);
      Files.write(tree.resolve(name), content);
    }
    Path archive = temp.resolve("cut.hpf");
    assertEquals(0, CliRun.hpf("create", archive, first).code());
    assertEquals(0, CliRun.hpf("add", archive, second).code());
    Path part = archive.resolve("part-00000002.hpfp");
    long cut = Files.size(part) / 2;
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(part.toFile(), "rw")) {
      f.setLength(cut);
    }
    CliRun ls = CliRun.hpf("ls", archive);
    assertEquals(0, ls.code(), ls.err());
    assertEquals(files.size(), ls.text().lines().count());

    Path out = temp.resolve("cut-out");
    CliRun extract = CliRun.hpf("extract", archive, out);
    assertEquals(1, extract.code(), extract.err());
    int written = 0;
    for (java.util.Map.Entry<String, byte[]> e : files.entrySet()) {
      if (Files.exists(out.resolve(e.getKey()))) {
        assertArrayEquals(e.getValue(), Files.readAllBytes(out.resolve(e.getKey())), e.getKey());
        written++;
      } else {
        assertTrue(
            extract.err().contains("'" + e.getKey() + "' is damaged, not written: ")
                && extract.err().contains("cut short at " + cut),
            extract.err());
      }
    }
    assertTrue(written > 10 && written < files.size(), written + " written");

    CliRun verify = CliRun.hpf("verify", archive);
    assertEquals(1, verify.code());
    assertTrue((verify.text() + verify.err()).contains("part-00000002.hpfp"), verify.text());
    CliRun recover = CliRun.hpf("recover", archive);
    assertEquals(1, recover.code(), recover.text());
    assertTrue(
        recover.err().contains("cut short at " + cut) && recover.err().contains("hpf rm"),
        recover.err());
  }

  @Test
  void everyCraftedArchiveIsJudgedInA256MiBHeap() throws Exception {
    Path corpus = temp.resolve("corpus-256");
    List<io.hpf.archive.CraftedCorpus.Case> cases = io.hpf.archive.CraftedCorpus.write(corpus);
    // Four processes at a time: each is mostly a JVM starting.
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    List<java.util.concurrent.Future<String[]>> runs = new java.util.ArrayList<>();
    for (io.hpf.archive.CraftedCorpus.Case c : cases) {
      runs.add(
          pool.submit(
              () -> {
                Process verify =
                    hpfProcess("-Xmx256m", "verify", corpus.resolve(c.name()).toString())
                        .redirectErrorStream(true)
                        .start();
                String out =
                    new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                return new String[] {String.valueOf(verify.waitFor()), out};
              }));
    }
    pool.shutdown();
    for (int i = 0; i < cases.size(); i++) {
      io.hpf.archive.CraftedCorpus.Case c = cases.get(i);
      String out = runs.get(i).get()[1];
      int code = Integer.parseInt(runs.get(i).get()[0]);
      String[] verdict = c.verdict().split("\t");
      if (verdict[0].equals("ok")) {
        assertEquals(0, code, c.name() + ": " + out);
      } else {
        assertEquals(1, code, c.name() + ": " + out);
        assertTrue(out.contains(verdict[1]), c.name() + ": " + out);
        assertFalse(out.contains("Exception") || out.contains("\tat "), c.name() + ": " + out);
      }
    }
  }

  @Test
  void anEntryThatIsAlsoADirectoryStopsExtractAndVerifyReportsIt() throws Exception {
    io.hpf.archive.CraftedCorpus.write(temp.resolve("corpus"));
    Path clash = temp.resolve("corpus/name-clash.hpf");
    Path out = temp.resolve("clash-out");
    CliRun extract = CliRun.hpf("extract", clash, out);
    assertEquals(1, extract.code(), extract.err());
    assertTrue(
        extract.err().contains("'d/x' (it is also a directory of other entries)")
            && extract.err().contains("nothing was written"),
        extract.err());
    CliRun skipping = CliRun.hpf("extract", "--skip-unsafe", clash, out);
    assertEquals(1, skipping.code(), skipping.err());
    assertEquals("under d/x", Files.readString(out.resolve("d/x/y")));
    assertEquals("e", Files.readString(out.resolve("e")));
    CliRun verify = CliRun.hpf("verify", clash);
    assertEquals(1, verify.code(), verify.text());
    assertTrue(
        (verify.text() + verify.err()).contains("entry 'd/x' is also a directory (of 'd/x/y')"),
        verify.text() + verify.err());
  }

  @Test
  void extractChecksEveryNameBeforeWritingAnything() throws IOException {
    Path archive = unsafeArchive();
    Path out = temp.resolve("out/x");
    CliRun refused = CliRun.hpf("extract", archive, out);
    assertEquals(1, refused.code());
    assertOneLineInOurWords(refused);
    assertTrue(refused.err().contains("'../evil.txt'"), refused.err());
    assertEquals(0, filesUnder(temp.resolve("out")), "extract wrote files before refusing");

    CliRun skipped = CliRun.hpf("extract", "--skip-unsafe", archive, out);
    assertEquals(1, skipped.code(), skipped.err());
    assertTrue(skipped.err().contains("skipped unsafe name '../evil.txt'"), skipped.err());
    assertEquals("a", Files.readString(out.resolve("ok/a.txt")));
    assertEquals("b", Files.readString(out.resolve("ok/b.txt")));
    assertEquals(2, filesUnder(temp.resolve("out")));
  }

  @Test
  void extractReplacesLinksInTheTargetInsteadOfWritingThroughThem() throws IOException {
    Path archive = temp.resolve("plain.hpf");
    new CraftedArchive(archive)
        .addPlain("ok/a.txt", "a".getBytes(StandardCharsets.UTF_8))
        .addPlain("top.txt", "top".getBytes(StandardCharsets.UTF_8))
        .commit();
    Path outside = Files.createDirectories(temp.resolve("outside"));
    Path victim = Files.writeString(outside.resolve("victim.txt"), "untouched");
    Path out = Files.createDirectories(temp.resolve("links"));
    Files.createSymbolicLink(out.resolve("ok"), outside); // a directory link
    Files.createSymbolicLink(out.resolve("top.txt"), victim); // a file link
    CliRun stopped = CliRun.hpf("extract", archive, out); // top.txt is there: nothing written
    assertEquals(1, stopped.code(), stopped.err());
    assertTrue(
        stopped.err().contains("1 file already there, such as 'top.txt'; nothing was written"),
        stopped.err());
    assertEquals("untouched", Files.readString(victim));
    CliRun run = CliRun.hpf("extract", "--overwrite", archive, out);
    assertEquals(0, run.code(), run.err());
    assertEquals("untouched", Files.readString(victim));
    assertFalse(Files.exists(outside.resolve("a.txt")), "wrote through a directory link");
    assertFalse(Files.isSymbolicLink(out.resolve("top.txt")));
    assertEquals("top", Files.readString(out.resolve("top.txt")));
    assertEquals("a", Files.readString(out.resolve("ok/a.txt")));
  }

  @Test
  void verifyReportsForbiddenNames() throws IOException {
    CliRun verify = CliRun.hpf("verify", unsafeArchive());
    assertEquals(1, verify.code());
    assertTrue(verify.err().contains("'../evil.txt' is not allowed"), verify.err());
  }

  @Test
  void damageAndLiesAreOneLineErrors() throws Exception {
    Path dir = temp.resolve("plain.hpf");
    io.hpf.testing.TestArchives.write(
        dir, ArchiveModel.random(40, 3), io.hpf.archive.model.WriterOptions.builder().build(), 1);
    try (FileChannel ch =
        FileChannel.open(dir.resolve("seg-00000001.hpfs"), StandardOpenOption.WRITE)) {
      // The catalog's first block header at 16 of the catalog, itself at 16 of the segment file.
      ch.write(
          ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, Integer.MAX_VALUE),
          16 + 17);
    }
    CliRun ls = CliRun.hpf("ls", dir);
    assertEquals(1, ls.code());
    assertOneLineInOurWords(ls);
    assertTrue(ls.err().contains("seg-00000001.hpfs (catalog from byte 16)"), ls.err());

    byte[] tenBytes = com.github.luben.zstd.Zstd.compress(new byte[10]);
    Path lies = temp.resolve("lies.hpf");
    new CraftedArchive(lies).add("claims-2g", Codec.ZSTD, Integer.MAX_VALUE, tenBytes, 0).commit();
    CliRun cat = CliRun.hpf("cat", lies, "claims-2g");
    CliRun get = CliRun.hpf("get", lies, "claims-2g", "-o", temp.resolve("g"));
    for (CliRun run : new CliRun[] {cat, get}) {
      assertEquals(1, run.code());
      assertOneLineInOurWords(run);
      assertTrue(run.err().contains("'claims-2g'"), run.err());
    }
    assertFalse(Files.exists(temp.resolve("g/claims-2g")), "get left a wrong file behind");
    CliRun missing = CliRun.hpf("ls", temp.resolve("nowhere.hpf"));
    assertEquals(1, missing.code());
    assertOneLineInOurWords(missing);
  }

  @Test
  void catStreamsAHugeEntryInASmallHeap() throws Exception {
    // 2 GiB and a bit of zeros, a few dozen KiB as a zstd frame: cat must stream it.
    long raw = (1L << 31) + 7;
    java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    byte[] zeros = new byte[1 << 20];
    try (var zstd = new com.github.luben.zstd.ZstdOutputStreamNoFinalizer(frame, 3)) {
      for (long left = raw; left > 0; left -= zeros.length) {
        int n = (int) Math.min(left, zeros.length);
        zstd.write(zeros, 0, n);
        crc.update(zeros, 0, n);
      }
    }
    Path bomb = temp.resolve("bomb.hpf");
    new CraftedArchive(bomb)
        .add("zeros", Codec.ZSTD, raw, frame.toByteArray(), (int) crc.getValue())
        .commit();
    Process cat = hpfProcess("-Xmx64m", "cat", bomb.toString(), "zeros").start();
    long total = 0;
    long nonZero = 0;
    byte[] buffer = new byte[1 << 16];
    try (var out = cat.getInputStream()) {
      for (int n; (n = out.read(buffer)) >= 0; ) {
        total += n;
        for (int i = 0; i < n; i++) {
          nonZero += buffer[i] == 0 ? 0 : 1;
        }
      }
    }
    String err = new String(cat.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, cat.waitFor(), err);
    assertEquals("", err);
    assertEquals(raw, total);
    assertEquals(0, nonZero);
  }
}
