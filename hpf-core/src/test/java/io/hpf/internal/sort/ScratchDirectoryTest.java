package io.hpf.internal.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scratch directories do not outlive their work however their process ends: closed, exited without
 * closing, or killed (then the next process to make one deletes it), and one a live process holds
 * is never taken from it. The processes are real JVMs.
 */
class ScratchDirectoryTest {
  @TempDir Path root;

  @Test
  void closingDeletesTheDirectoryAndItsFiles() throws IOException {
    ScratchDirectory dir = ScratchDirectory.create(root, "t");
    Files.write(dir.resolve("run-0"), new byte[100]);
    assertTrue(dir.path().getFileName().toString().startsWith(ScratchDirectory.PREFIX + "t-"));
    dir.close();
    assertFalse(Files.exists(dir.path()));
  }

  @Test
  void aProcessThatExitsWithoutClosingDeletesItOnTheWayOut() throws Exception {
    Path made = Path.of(child("exit").output);
    assertFalse(Files.exists(made), made + " is left");
  }

  @Test
  void aKilledProcessLeavesItToTheNextProcessThatMakesOne() throws Exception {
    Path left = Path.of(child("halt").output);
    assertTrue(Files.isDirectory(left), "a killed process cannot delete anything");
    ScratchDirectory.deleteAbandoned(root); // what the next process's first create does
    assertFalse(Files.exists(left));
  }

  @Test
  void aDirectoryALiveProcessHoldsIsLeftAlone() throws Exception {
    Process p = start("hold");
    Path held =
        Path.of(
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
                .readLine());
    try {
      ScratchDirectory.deleteAbandoned(root);
      assertTrue(Files.isDirectory(held), "taken from a live process");
      ScratchDirectory mine = ScratchDirectory.create(root, "t");
      ScratchDirectory.deleteAbandoned(root);
      // The root named otherwise: this process must not open (and so unlock) its own lock file.
      ScratchDirectory.deleteAbandoned(root.resolve("."));
      assertTrue(Files.isDirectory(mine.path()), "taken from this process");
      child("sweep");
      assertTrue(Files.isDirectory(mine.path()), "taken by another process");
      mine.close();
    } finally {
      p.getOutputStream().close();
      assertEquals(0, p.waitFor());
    }
    assertFalse(Files.exists(held), "its process closed it");
  }

  private record Ended(int exitCode, String output) {}

  private Ended child(String mode) throws Exception {
    Process p = start(mode);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    int code = p.waitFor();
    assertEquals(0, code, out);
    return new Ended(code, out);
  }

  private Process start(String mode) throws IOException {
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xshare:auto",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            ScratchChildMain.class.getName(),
            root.toString(),
            mode)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
  }
}
