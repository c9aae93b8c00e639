package io.hpf.cli;

import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/** Turns a command-line archive argument into storage. Local paths and file: URIs for now. */
final class Archives {
  private Archives() {}

  static Path localPath(String argument) {
    if (argument.startsWith("file:")) {
      return Path.of(URI.create(argument));
    }
    if (argument.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
      throw new IllegalArgumentException(
          argument
              + ": only local archives are supported by this build (file systems by URI come with"
              + " the Hadoop module)");
    }
    return Path.of(argument);
  }

  static LocalStorage open(String argument) throws IOException {
    return LocalStorage.open(localPath(argument));
  }
}
