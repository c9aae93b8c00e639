package io.hpf.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** One in-process run of the hpf command: exit code, standard output bytes, standard error. */
record CliRun(int code, byte[] out, String err) {
  String text() {
    return new String(out, StandardCharsets.UTF_8);
  }

  /** Runs {@code hpf ARGS...} as a user would type it. */
  static CliRun hpf(Object... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] strings = java.util.Arrays.stream(args).map(String::valueOf).toArray(String[]::new);
    int code = Main.run(strings, out, err);
    return new CliRun(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }
}
