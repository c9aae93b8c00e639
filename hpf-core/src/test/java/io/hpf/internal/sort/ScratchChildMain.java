package io.hpf.internal.sort;

import java.nio.file.Path;

/**
 * A process that makes a scratch directory under the root it is given, prints its path, and then
 * ends as {@link ScratchDirectoryTest} asks: {@code halt} (killed: no shutdown hooks), {@code exit}
 * (exits without closing it), or {@code hold} (keeps it until its standard input ends); or, with
 * {@code sweep}, only deletes the abandoned ones there.
 */
public final class ScratchChildMain {
  private ScratchChildMain() {}

  public static void main(String[] args) throws Exception {
    if (args[1].equals("sweep")) {
      ScratchDirectory.deleteAbandoned(Path.of(args[0]));
      return;
    }
    ScratchDirectory dir = ScratchDirectory.create(Path.of(args[0]), "child");
    System.out.println(dir.path());
    System.out.flush();
    if (args[1].equals("halt")) {
      Runtime.getRuntime().halt(0);
    } else if (args[1].equals("exit")) {
      System.exit(0);
    } else {
      while (System.in.read() >= 0) {
        // hold it until the test closes our input
      }
      dir.close();
    }
  }
}
