package io.hpf.server.http;

/** Writes JSON strings: the few responses the server makes need no library. */
final class Json {
  private Json() {}

  /** Appends {@code s} as a JSON string literal, quotes included. */
  static StringBuilder string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }

  /** {@code {"error":message,"status":status}}. */
  static String error(int status, String message) {
    StringBuilder out = new StringBuilder(message.length() + 32);
    out.append("{\"error\":");
    string(out, message);
    return out.append(",\"status\":").append(status).append("}\n").toString();
  }
}
