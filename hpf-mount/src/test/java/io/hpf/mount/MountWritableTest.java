package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.VerifyReport;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.ProgressListener;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpf mount --writable} as programs use it, through the kernel: {@code cp -r}, {@code tar
 * x}, {@code rsync -a}, {@code unzip}, {@code git clone} and a Python program write trees that
 * {@code diff -r} finds equal to their sources through the mount and, after the mount ends, in the
 * archive (which verifies).
 */
class MountWritableTest {
  @TempDir Path temp;

  @BeforeEach
  void fuse() {
    Mounted.assumeFuse();
  }

  /** Runs {@code script} with bash in {@code dir}; fails the test unless it exits 0. */
  static String sh(Path dir, String script) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "still running: " + script);
    assertEquals(0, p.exitValue(), script + "\n" + out);
    return out;
  }

  /**
   * A tree of files as programs write them: nested directories, empty, small and large files (one
   * over a chunk), some executable; reproducible.
   */
  static TreeMap<String, byte[]> makeTree(Path root, int files) throws IOException {
    Random random = new Random(7);
    TreeMap<String, byte[]> made = new TreeMap<>();
    for (int i = 0; i < files; i++) {
      String name = "d" + (i % 7) + "/s" + (i % 3) + "/f" + i + (i % 5 == 0 ? ".bin" : ".txt");
      int size = i == 3 ? 3 << 20 : i % 11 == 0 ? 0 : random.nextInt(i % 4 == 0 ? 300_000 : 4_000);
      byte[] content = new byte[size];
      random.nextBytes(content);
      Path file = root.resolve(name);
      Files.createDirectories(file.getParent());
      Files.write(file, content);
      if (i % 6 == 0) {
        Files.setPosixFilePermissions(
            file, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      made.put(name, content);
    }
    return made;
  }

  /** The archive's entries under {@code prefix}/, by name below it. */
  static TreeMap<String, byte[]> entriesUnder(ArchiveReader r, String prefix) throws IOException {
    TreeMap<String, byte[]> found = new TreeMap<>();
    var rows = r.list(prefix + "/");
    while (rows.hasNext()) {
      EntryInfo row = rows.next();
      found.put(row.name().substring(prefix.length() + 1), r.get(row));
    }
    return found;
  }

  static int countUnder(ArchiveReader r, String prefix) throws IOException {
    int n = 0;
    for (var rows = r.list(prefix + "/"); rows.hasNext(); rows.next()) {
      n++;
    }
    return n;
  }

  static void assertSameTree(TreeMap<String, byte[]> expected, TreeMap<String, byte[]> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    expected.forEach((name, bytes) -> assertArrayEquals(bytes, actual.get(name), name));
  }

  @Test
  void programsWriteTreesThatTheArchiveHoldsOnceUnmounted() throws Exception {
    Path src = temp.resolve("src");
    TreeMap<String, byte[]> tree = makeTree(src, 240);
    sh(temp, "tar cf tree.tar -C src . && (cd src && zip -qr ../tree.zip .)");
    sh(
        temp,
        "git init -q repo && cp -r src/. repo/ && cd repo && git add -A"
            + " && git -c user.email=t@e -c user.name=t commit -qm tree");
    Path archive = temp.resolve("w.hpf");
    try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"), "--writable")) {
      sh(
          temp,
          String.join(
              "\n",
              "cp -r src mnt/cp",
              "mkdir mnt/tar && tar xf tree.tar -C mnt/tar",
              "rsync -a src/ mnt/rsync/",
              "mkdir mnt/unzip && unzip -q tree.zip -d mnt/unzip",
              "git clone -q repo mnt/clone",
              "python3 - <<'EOF'",
              "import os",
              "for i in range(10000):",
              "    d = 'mnt/py/%02d' % (i % 50)",
              "    os.makedirs(d, exist_ok=True)",
              "    with open('%s/f%05d' % (d, i), 'wb') as f:",
              "        f.write(str(i).encode() * (i % 97))",
              "EOF",
              // Through the mount, at once: what was written reads back before any commit.
              "for d in cp tar rsync unzip; do diff -r src mnt/$d; done",
              "diff -r -x .git src mnt/clone",
              "cd mnt/clone && git status --porcelain && test -z \"$(git status --porcelain)\""));
      try (var listed = Files.list(mount.dir.resolve("py"))) {
        assertEquals(50, listed.count());
      }
      assertEquals(
          "rwxr-xr-x",
          java.nio.file.attribute.PosixFilePermissions.toString(
              Files.getPosixFilePermissions(mount.dir.resolve("rsync/d0/s0/f0.bin"))));
    }
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      for (String d : new String[] {"cp", "tar", "rsync", "unzip"}) {
        assertSameTree(tree, entriesUnder(r, d));
      }
      TreeMap<String, byte[]> clone = entriesUnder(r, "clone");
      clone.keySet().removeIf(n -> n.startsWith(".git/"));
      assertSameTree(tree, clone);
      assertEquals(10_000, entriesUnder(r, "py").size());
      assertArrayEquals(
          "1234".repeat(1234 % 97).getBytes(StandardCharsets.UTF_8), r.get("py/34/f01234"));
      assertEquals(0755, r.stat("rsync/d0/s0/f0.bin").mode() & 0777, "rsync -a kept the mode");
      long mtime = Files.getLastModifiedTime(src.resolve("d0/s0/f0.bin")).toMillis();
      assertEquals(mtime / 1000, r.stat("rsync/d0/s0/f0.bin").mtimeMillis() / 1000);
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(archive), ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    // Mounted again, the clone is a repository git reads as it was written.
    try (Mounted again = Mounted.mount(archive.toString(), temp.resolve("mnt"), "--writable")) {
      sh(again.dir.resolve("clone"), "git fsck --no-progress && git log --oneline | grep -q tree");
    }
  }

  @Test
  void namesChangeAsOnAnyFileSystemAndWhatCannotBeIsRefused() throws Exception {
    Path archive = temp.resolve("n.hpf");
    try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"), "--writable")) {
      Path m = mount.dir;
      sh(
          m,
          String.join(
              "\n",
              "mkdir -p a/b && echo one > a/b/x && echo two > a/y && printf 'abc' > t",
              "mv a/b/x a/b/z && test ! -e a/b/x && test \"$(cat a/b/z)\" = one",
              "mv a c && test ! -e a && test \"$(cat c/b/z)\" = one && test \"$(cat c/y)\" = two",
              "rm c/b/z && test -d c/b && rmdir c/b && test ! -e c/b",
              "! rmdir c 2>/dev/null", // not empty
              "mkdir empty && test -d empty && ls -d empty",
              "truncate -s 1 t && test \"$(cat t)\" = a",
              "echo more >> t && test \"$(cat t)\" = amore",
              "chmod 600 t && test \"$(stat -c %a t)\" = 600",
              "touch -d '2001-02-03 04:05:06 UTC' t && test \"$(stat -c %Y t)\" = 981173106",
              "echo over > c/y && test \"$(cat c/y)\" = over",
              "! ln t hard 2>/dev/null && ! ln -s t soft 2>/dev/null",
              "! mknod fifo p 2>/dev/null && ! mkdir c/y/under 2>/dev/null",
              "echo 1 > f && sync f && rm f && mkdir f && echo 2 > f/g && sync f/g",
              "sync t" // fsync: committed, and durable
              ));
    }
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      TreeMap<String, byte[]> all = entriesUnder(r, "c");
      assertEquals(java.util.Set.of("y"), all.keySet());
      assertArrayEquals("over\n".getBytes(StandardCharsets.UTF_8), all.get("y"));
      assertArrayEquals("amore\n".getBytes(StandardCharsets.UTF_8), r.get("t"));
      assertEquals(0600, r.stat("t").mode() & 0777);
      assertEquals(981173106000L, r.stat("t").mtimeMillis());
      assertArrayEquals("2\n".getBytes(StandardCharsets.UTF_8), r.get("f/g"));
      assertEquals(3, r.entryCount(), "no empty directory, no link, no fifo");
    }
  }

  @Test
  void renamesOverAFileAreAtomicToReadersOfTheMount() throws Exception {
    Path archive = temp.resolve("r.hpf");
    try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"), "--writable")) {
      Path current = mount.dir.resolve("current");
      Files.write(current, version(0));
      java.util.concurrent.atomic.AtomicBoolean done =
          new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicReference<String> wrong =
          new java.util.concurrent.atomic.AtomicReference<>();
      Thread reader =
          new Thread(
              () -> {
                while (!done.get() && wrong.get() == null) {
                  try {
                    byte[] read = Files.readAllBytes(current);
                    int v = read.length < 4 ? -1 : java.nio.ByteBuffer.wrap(read).getInt();
                    if (v < 0 || !java.util.Arrays.equals(version(v), read)) {
                      wrong.set("read " + read.length + " bytes of version " + v);
                    }
                  } catch (IOException e) {
                    wrong.set("read failed: " + e);
                  }
                }
              });
      reader.start();
      for (int v = 1; v <= 300; v++) { // rsync's way: a temporary file renamed over the name
        Path tmp = mount.dir.resolve(".current.tmp" + v);
        Files.write(tmp, version(v));
        Files.move(tmp, current, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      }
      done.set(true);
      reader.join();
      assertEquals(null, wrong.get());
      assertArrayEquals(version(300), Files.readAllBytes(current));
    }
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      assertArrayEquals(version(300), r.get("current"));
      assertEquals(1, r.entryCount(), "no temporary file left");
    }
  }

  @Test
  void aDirectoryRenamedReachesTheArchiveInOneCommit() throws Exception {
    Path archive = temp.resolve("d.hpf");
    try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"), "--writable")) {
      sh(
          mount.dir,
          // More files than a group commits at most (10,000): moved one by one, they could not
          // land in one commit.
          "mkdir -p big/sub && python3 -c \"\n"
              + "for i in range(1, 6001):\n"
              + "    open('big/f%d' % i, 'w').write('%d\\\\n' % i)\n"
              + "    open('big/sub/g%d' % i, 'w').write('%d\\\\n' % i)\n"
              + "\" && sync big/sub/g6000"); // the last closed: with it, all before it
      java.util.concurrent.atomic.AtomicBoolean done =
          new java.util.concurrent.atomic.AtomicBoolean();
      java.util.List<String> seen =
          java.util.Collections.synchronizedList(new java.util.ArrayList<>());
      Thread reader =
          new Thread(
              () -> {
                while (!done.get()) { // every commit read: the old tree or the new, never a mix
                  try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
                    seen.add(countUnder(r, "big") + "/" + countUnder(r, "moved"));
                  } catch (IOException e) {
                    seen.add(e.toString());
                  }
                }
              });
      reader.start();
      // One of the moved files is written to while the rename would go (open past the 200 ms a
      // change settles): the rename waits for its close, and still lands in one commit.
      sh(
          mount.dir,
          "mv big moved && (exec 3>moved/f3; sleep 0.6; echo 3 >&3) && sync moved/f3"
              + " && test ! -e big");
      Thread.sleep(200);
      done.set(true);
      reader.join();
      assertTrue(seen.contains("0/12000"), seen.toString());
      assertEquals(
          java.util.Set.of("12000/0", "0/12000"), new java.util.TreeSet<>(seen), "never a mix");
    }
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      assertEquals(12_000, entriesUnder(r, "moved").size());
      assertArrayEquals("3\n".getBytes(StandardCharsets.UTF_8), r.get("moved/f3"));
      assertArrayEquals("7\n".getBytes(StandardCharsets.UTF_8), r.get("moved/sub/g7"));
    }
  }

  /** A Python program writing files into {@code dir}, each tenth fsynced and then printed. */
  static final String WRITER =
      String.join(
          "\n",
          "import os, sys",
          "i = 0",
          "while True:",
          "    p = os.path.join(sys.argv[1], 'f%06d' % i)",
          "    with open(p, 'wb') as f:",
          "        f.write(b'%d.' % i * (i % 3000 + 1))",
          "        if i % 10 == 0:",
          "            f.flush(); os.fsync(f.fileno()); print(p, flush=True)",
          "    i += 1");

  static byte[] written(int i) {
    return (i + ".").repeat(i % 3000 + 1).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aKilledMountLosesNoFsyncedFileAndLeavesNoHalfFile() throws Exception {
    Path archive = temp.resolve("k.hpf");
    Random random = new Random();
    java.util.List<String> synced = new java.util.ArrayList<>();
    for (int round = 0; round < 2; round++) {
      int killAfter = 20 + random.nextInt(200); // fsynced files before the kill: a random instant
      try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"), "--writable")) {
        Path dir = Files.createDirectories(mount.dir.resolve("r" + round));
        Process writer =
            new ProcessBuilder("python3", "-c", WRITER, dir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (var lines =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
          for (int n = 0; n < killAfter; n++) {
            synced.add(mount.dir.relativize(Path.of(lines.readLine())).toString());
          }
          ProcessHandle server = mount.server().orElseThrow();
          server.destroyForcibly();
          server.onExit().get(30, TimeUnit.SECONDS);
          writer.waitFor(30, TimeUnit.SECONDS); // its next write fails: the mount is gone
        }
      } // unmounted; the next round's mount recovers the archive from the killed writer
    }
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      for (String name : synced) {
        assertTrue(r.stat(name) != null, name + " was fsynced: it is committed");
      }
      var rows = r.list("");
      while (rows.hasNext()) { // what is there is whole, fsynced or not
        EntryInfo row = rows.next();
        int i = Integer.parseInt(row.name().substring(row.name().indexOf("/f") + 2));
        assertArrayEquals(written(i), r.get(row), row.name());
      }
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(archive), ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
  }

  @Test
  void aFullSpillDirectoryFailsTheWriteAndCommitsNothingOfTheFile() throws Exception {
    Path spill = Files.createDirectories(temp.resolve("spill"));
    boolean mounted =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", spill.toString())
                .start()
                .waitFor()
            == 0;
    org.junit.jupiter.api.Assumptions.assumeTrue(mounted, "cannot mount a tmpfs (needs root)");
    Path archive = temp.resolve("s.hpf");
    try (Mounted mount =
        Mounted.mount(
            archive.toString(),
            temp.resolve("mnt"),
            "--writable",
            "--memory",
            "64k",
            "--spill",
            spill.toString())) {
      String out =
          sh(
              mount.dir,
              String.join(
                  "\n",
                  "echo small > small",
                  "if head -c 4000000 /dev/zero > big 2> err; then echo wrote; fi",
                  "cat err",
                  "echo after > after"));
      assertTrue(out.contains("No space left on device"), out);
      assertFalse(out.contains("wrote"), out);
    } finally {
      new ProcessBuilder("umount", spill.toString()).start().waitFor();
    }
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      assertArrayEquals("small\n".getBytes(StandardCharsets.UTF_8), r.get("small"));
      assertArrayEquals("after\n".getBytes(StandardCharsets.UTF_8), r.get("after"));
      assertEquals(null, r.stat("big"), "nothing of a file that could not be staged");
    }
  }

  @Test
  void anArchiveAnotherWriterHoldsIsRefusedInOneLineNamingTheHolder() throws Exception {
    Path archive = temp.resolve("l.hpf");
    io.hpf.archive.model.WriterOptions options =
        io.hpf.archive.model.WriterOptions.builder().build();
    try (io.hpf.archive.ArchiveWriter made =
        io.hpf.archive.ArchiveWriter.create(LocalStorage.createDirectories(archive), options)) {
      made.commit();
    }
    try (io.hpf.archive.ArchiveWriter held =
        io.hpf.archive.ArchiveWriter.open(LocalStorage.open(archive), options)) {
      Path dir = Files.createDirectories(temp.resolve("mnt"));
      Mounted.Run run =
          Mounted.run(MountMain.class, archive.toString(), dir.toString(), "--writable");
      assertEquals(1, run.exitCode(), run.output());
      String pid = String.valueOf(ProcessHandle.current().pid());
      assertTrue(
          run.output().matches("(?s)hpf mount: .*locked by another writer .*pid " + pid + ".*\n"),
          run.output());
      assertEquals(1, run.output().lines().count(), run.output());
      assertEquals(null, Mounts.typeAt(dir), "nothing mounted");
    }
  }

  /** Version {@code v} of a file: its number, then bytes of it, 1-20 KB. */
  static byte[] version(int v) {
    byte[] b = new byte[1000 + (v * 7919) % 19_000];
    java.util.Arrays.fill(b, (byte) v);
    java.nio.ByteBuffer.wrap(b).putInt(v);
    return b;
  }
}
