package io.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.ArchiveLockedException;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On local disk the lock of a writer of this host that died is taken over without --break-lock,
 * saying whose it was; a live writer's never is (this process's, another process's), nor another
 * host's unless asked; of several writers that find the same stale lock exactly one takes it.
 */
class ArchiveLockTest {
  @TempDir Path dir;

  Path archive() throws Exception {
    Path archive = dir.resolve("a.hpf");
    try (ArchiveWriter w =
        ArchiveWriter.create(
            LocalStorage.createDirectories(archive), WriterOptions.builder().build())) {
      w.add("a", new byte[] {1}, EntryMetadata.of(0));
      w.commit();
    }
    return archive;
  }

  static String host() throws IOException {
    return InetAddress.getLocalHost().getHostName();
  }

  /** The pid of a process that has ended. */
  static long deadPid() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    return gone.pid();
  }

  @Test
  void aCreateBesideAnotherCreatorsLockNamesItsHolderAndADeadOnesIsTakenOver() throws Exception {
    Path archive = dir.resolve("new.hpf");
    try (ArchiveWriter first =
        ArchiveWriter.create(
            LocalStorage.createDirectories(archive), WriterOptions.builder().build())) {
      ArchiveLockedException held =
          assertThrows(
              ArchiveLockedException.class,
              () ->
                  ArchiveWriter.create(
                      LocalStorage.open(archive), WriterOptions.builder().build()));
      assertTrue(
          held.getMessage().contains("pid " + ProcessHandle.current().pid()), held.getMessage());
    }
    Files.writeString(
        archive.resolve("hpf.lock"),
        "host " + host() + ", pid " + deadPid() + ", since " + Instant.now());
    try (ArchiveWriter w =
        ArchiveWriter.create(LocalStorage.open(archive), WriterOptions.builder().build())) {
      w.add("a", new byte[] {1}, EntryMetadata.of(0));
      w.commit(); // the dead creator's lock was taken over: the archive is made
    }
  }

  @Test
  void aDeadWritersLockOfThisHostIsTakenOverSayingWhose() throws Exception {
    Path archive = archive();
    String stale = "host " + host() + ", pid " + deadPid() + ", since " + Instant.now();
    Files.writeString(archive.resolve("hpf.lock"), stale);
    try (ArchiveWriter w =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      assertEquals(stale, w.recovery().lockTakenFrom());
      String now = Files.readString(archive.resolve("hpf.lock"));
      assertTrue(now.contains("pid " + ProcessHandle.current().pid()), now);
      ArchiveLockedException second =
          assertThrows(
              ArchiveLockedException.class,
              () ->
                  ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build()));
      assertTrue(second.getMessage().contains("a writer of this process"), second.getMessage());
      assertTrue(second.getMessage().contains("pid " + ProcessHandle.current().pid()));
    }
    assertFalse(Files.exists(archive.resolve("hpf.lock")), "let go on close");
    try (ArchiveWriter w =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      assertNull(w.recovery().lockTakenFrom());
    }
  }

  /** A writer killed between making the lock file and writing its line left it empty. */
  @Test
  void anEmptyLockFileNoOneHoldsIsTakenOver() throws Exception {
    Path archive = archive();
    Files.writeString(archive.resolve("hpf.lock"), "");
    try (ArchiveWriter w =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      assertTrue(w.recovery().lockTakenFrom().contains("died"), w.recovery().lockTakenFrom());
    }
  }

  @Test
  void aLiveWritersLockAndAnotherHostsAreNotTakenOver() throws Exception {
    Path archive = archive();
    Process alive = new ProcessBuilder("sleep", "30").start();
    try {
      Files.writeString(
          archive.resolve("hpf.lock"),
          "host " + host() + ", pid " + alive.pid() + ", since " + Instant.now().plusSeconds(2));
      for (boolean breakLock : new boolean[] {false, true}) {
        ArchiveLockedException e =
            assertThrows(
                ArchiveLockedException.class,
                () ->
                    ArchiveWriter.open(
                        LocalStorage.open(archive),
                        WriterOptions.builder().breakLock(breakLock).build()));
        assertTrue(e.getMessage().contains("alive on this host"), e.getMessage());
      }
    } finally {
      alive.destroyForcibly();
    }
    Files.writeString(
        archive.resolve("hpf.lock"),
        "host elsewhere.example, pid 42, since " + Instant.now().minusSeconds(90));
    ArchiveLockedException other =
        assertThrows(
            ArchiveLockedException.class,
            () -> ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build()));
    assertTrue(other.getMessage().contains("host elsewhere.example, pid 42"), other.getMessage());
    assertTrue(other.getMessage().contains("taken 9"), other.getMessage()); // 90 s ago, or 91
    assertTrue(other.getMessage().contains("--break-lock"), other.getMessage());
    try (ArchiveWriter w =
        ArchiveWriter.open(
            LocalStorage.open(archive), WriterOptions.builder().breakLock(true).build())) {
      assertTrue(w.recovery().lockTakenFrom().contains("elsewhere.example"));
    }
  }

  /** Holds a writer of the archive for a while; prints "held" or "locked". */
  public static final class Holder {
    public static void main(String[] args) throws Exception {
      try (ArchiveWriter w =
          ArchiveWriter.open(
              LocalStorage.open(Path.of(args[0])), WriterOptions.builder().build())) {
        System.out.println("held");
        System.out.flush();
        Thread.sleep(Long.parseLong(args[1]));
      } catch (ArchiveLockedException e) {
        System.out.println("locked");
      }
    }
  }

  @Test
  void ofWritersRacingForAStaleLockExactlyOneTakesIt() throws Exception {
    Path archive = archive();
    for (int round = 0; round < 2; round++) {
      Files.writeString(
          archive.resolve("hpf.lock"),
          "host " + host() + ", pid " + deadPid() + ", since " + Instant.now(),
          StandardCharsets.UTF_8);
      List<Process> racers = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        racers.add(
            new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    Holder.class.getName(),
                    archive.toString(),
                    "3000")
                .redirectErrorStream(true)
                .start());
      }
      int held = 0;
      for (Process p : racers) {
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(out.equals("held") || out.equals("locked"), out);
        held += out.equals("held") ? 1 : 0;
      }
      assertEquals(1, held, "writers that took the stale lock in round " + round);
    }
  }
}
