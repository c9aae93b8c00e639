package io.hpf.cli;

import java.net.URI;
import java.nio.file.Path;

/** A local archive argument (a path or a file: URI) as a path. */
final class Archives {
  private Archives() {}

  static Path localPath(String argument) {
    return argument.startsWith("file:") ? Path.of(URI.create(argument)) : Path.of(argument);
  }
}
