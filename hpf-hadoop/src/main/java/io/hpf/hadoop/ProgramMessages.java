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
      return m == null ? "input/output error" : inOurWords(m);
    }
    return "internal error" + (m == null ? "" : ": " + inOurWords(m)) + " (a bug in hpf)";
  }

  /**
   * A Java exception's class name before a colon or at the end: {@code
   * software.amazon...SdkClientException: }.
   */
  private static final java.util.regex.Pattern CLASS_NAME =
      java.util.regex.Pattern.compile(
          "\\b(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error)(?::\\s*|$)");

  /**
   * A message from a library (Hadoop's connectors, the AWS SDK) in hpf's words as far as can be:
   * the Java class names those libraries put into their messages taken out, and the parts they
   * repeat (a cause's message wrapped again and again) said once.
   */
  public static String inOurWords(String message) {
    String m = CLASS_NAME.matcher(message).replaceAll("");
    String[] parts = m.split(":\\s+");
    java.util.LinkedHashSet<String> seen = new java.util.LinkedHashSet<>();
    for (String part : parts) {
      String p = part.strip();
      if (!p.isEmpty()) {
        seen.add(p);
      }
    }
    return String.join(": ", seen);
  }
}
