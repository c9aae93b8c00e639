package io.hpf.crash;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.store.LocalStorage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A reader in its own process, for tests of readers during writes: for the given time it does
 * random gets of the names its snapshot lists, refreshing now and then, and checks every byte
 * against {@link ConcurrentReadersTest#contentOf}. Prints "OK gets" and exits 0, or prints the
 * problem and exits 1. Arguments: archive directory, milliseconds.
 */
public final class ReaderProcessMain {
  private ReaderProcessMain() {}

  public static void main(String[] args) throws Exception {
    LocalStorage storage = LocalStorage.open(Path.of(args[0]));
    long until = System.currentTimeMillis() + Long.parseLong(args[1]);
    SplittableRandom random = new SplittableRandom(7);
    long gets = 0;
    ArchiveReader reader = ArchiveReader.open(storage);
    List<String> names = names(reader);
    while (System.currentTimeMillis() < until) {
      String name = names.get(random.nextInt(names.size()));
      try {
        byte[] content = reader.get(name);
        if (!Arrays.equals(content, ConcurrentReadersTest.contentOf(name))) {
          System.out.println(
              "WRONG BYTES for " + name + " in generation " + reader.manifest().generation());
          System.exit(1);
        }
      } catch (EntryNotFoundException e) {
        System.out.println("NOT FOUND in its own snapshot: " + name);
        System.exit(1);
      }
      if (++gets % 500 == 0) {
        ArchiveReader fresh = reader.refresh();
        if (fresh != reader) {
          reader.close();
          reader = fresh;
          names = names(reader);
        }
      }
    }
    reader.close();
    System.out.println("OK " + gets);
  }

  private static List<String> names(ArchiveReader reader) throws Exception {
    List<String> names = new ArrayList<>();
    reader.list("").forEachRemaining(e -> names.add(e.name()));
    return names;
  }
}
