package io.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output that cannot be written fails the command, naming the target: every command that writes to
 * standard output, run as its own process with standard output on {@code /dev/full}; {@code get}
 * and {@code extract} onto a full file system (a 64 KiB tmpfs, mounted when the machine allows: it
 * needs root); a reader that closes the pipe ({@code hpf ls | head}) ends the command quietly.
 */
class FullDeviceTest {
  @TempDir static Path temp;
  private static Path archive;
  private static Path tmpfs;
  private static boolean mounted;

  @BeforeAll
  static void createArchive() throws Exception {
    Path source = temp.resolve("src");
    Random random = new Random(2);
    for (int i = 0; i < 2000; i++) {
      Path file = source.resolve("dir" + (i % 10) + "/file-" + i + ".txt");
      Files.createDirectories(file.getParent());
      Files.writeString(file, "line " + i + "\n");
    }
    byte[] big = new byte[256 << 10]; // larger than the tmpfs, streamed by cat
    random.nextBytes(big);
    Files.write(source.resolve("big.bin"), big);
    archive = temp.resolve("a.hpf");
    CliRun create = CliRun.hpf("create", archive, source);
    assertEquals(0, create.code(), create.err());
    tmpfs = Files.createDirectories(temp.resolve("full"));
    mounted =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tmpfs.toString())
                .redirectErrorStream(true)
                .start()
                .waitFor()
            == 0;
  }

  @AfterAll
  static void unmount() throws Exception {
    if (mounted) {
      new ProcessBuilder("umount", tmpfs.toString()).start().waitFor();
    }
  }

  /** Runs {@code hpf ARGS} as its own JVM with standard output on {@code /dev/full}. */
  private static Result toDevFull(String... args) throws Exception {
    Process p =
        command(args)
            .redirectOutput(ProcessBuilder.Redirect.to(new File("/dev/full")))
            .redirectError(ProcessBuilder.Redirect.PIPE)
            .start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(p.waitFor(), err);
  }

  private record Result(int code, String err) {}

  private static ProcessBuilder command(String... args) {
    List<String> line = new ArrayList<>();
    line.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    line.add("-cp");
    line.add(System.getProperty("java.class.path"));
    line.add(Main.class.getName());
    line.addAll(List.of(args));
    return new ProcessBuilder(line);
  }

  @Test
  void everyCommandThatPrintsFailsOnAFullDevice() throws Exception {
    String a = archive.toString();
    List<List<String>> lines =
        List.of(
            List.of("cat", a, "big.bin"), // streamed
            List.of("cat", a, "dir1/file-1.txt"), // whole, the fast path without picocli
            List.of("cat", "-D", "x=1", a, "dir1/file-1.txt"), // through picocli
            List.of("ls", a),
            List.of("ls", "-l", a),
            List.of("ls", "--json", a),
            List.of("info", a),
            List.of("info", "--json", a),
            List.of("log", a),
            List.of("verify", a),
            List.of("--help"),
            List.of("ls", "--help"),
            List.of("--version"));
    for (List<String> line : lines) {
      Result r = toDevFull(line.toArray(String[]::new));
      assertEquals(1, r.code(), line + ": " + r.err());
      assertEquals(
          "hpf: standard output: No space left on device\n", r.err(), line + " says why, once");
    }
  }

  @Test
  void aClosedPipeEndsTheCommandQuietly() throws Exception {
    Process ls = command("ls", archive.toString()).start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(ls.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("big.bin", out.readLine()); // then stop reading, as head does
    }
    String err = new String(ls.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(Main.EXIT_BROKEN_PIPE, ls.waitFor(), err);
    assertEquals("", err);
  }

  @Test
  void getAndExtractOnAFullFileSystemNameTheFile() throws Exception {
    Assumptions.assumeTrue(mounted, "cannot mount a tmpfs here (needs root): not tested");
    CliRun get = CliRun.hpf("get", archive, "big.bin", "-o", tmpfs);
    assertEquals(1, get.code(), get.err());
    assertEquals(
        "hpf: " + tmpfs.resolve("big.bin") + ": No space left on device\n",
        get.err(),
        "get names the file it was writing");
    assertFalse(Files.exists(tmpfs.resolve("big.bin")), "no half of it is left");

    // An archive written onto the full file system names the part file that did not fit.
    Path onFull = tmpfs.resolve("a.hpf");
    CliRun create = CliRun.hpf("create", "--codec", "none", onFull, temp.resolve("src"));
    assertEquals(1, create.code(), create.err());
    assertTrue(
        create.err().startsWith("hpf: " + onFull + "/part-")
            && create.err().endsWith(": No space left on device\n"),
        create.err());
    assertFalse(Files.exists(onFull), "a failed create leaves nothing");

    Path into = tmpfs.resolve("x");
    CliRun extract = CliRun.hpf("extract", archive, into);
    assertEquals(1, extract.code(), extract.err());
    assertTrue(
        extract.err().startsWith("hpf: " + into + "/")
            && extract.err().endsWith(": No space left on device\n"),
        extract.err());
    clear(into);
  }

  private static void clear(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
