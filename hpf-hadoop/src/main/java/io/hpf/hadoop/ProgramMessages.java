package io.hpf.hadoop;

import java.io.IOException;

/** How the engines' programs ({@code hpf serve}, {@code hpf mount}) say why they failed. */
public final class ProgramMessages {
  private ProgramMessages() {}

  /**
   * A failure in one line of hpf's words: the message of an I/O or argument error (which names the
   * file or argument), else "internal error ... (a bug in hpf)" — never a class name.
   */
  public static String describe(Throwable e) {
    if (e instanceof java.nio.file.NoSuchFileException n) {
      return n.getFile() + ": no such file or directory";
    }
    String m = e.getMessage();
    if (e instanceof IOException || e instanceof IllegalArgumentException) {
      return m == null ? "input/output error" : m;
    }
    return "internal error" + (m == null ? "" : ": " + m) + " (a bug in hpf)";
  }
}
