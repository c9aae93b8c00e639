package io.hpf.server.http;

import io.hpf.archive.EntryJson;

/**
 * The server's JSON: strings and rows as every hpf tool writes them ({@link EntryJson}), errors.
 */
final class Json {
  private Json() {}

  /** Appends {@code s} as a JSON string literal, quotes included ({@link EntryJson#string}). */
  static StringBuilder string(StringBuilder out, String s) {
    return EntryJson.string(out, s);
  }

  /** {@code {"error":message,"status":status}}. */
  static String error(int status, String message) {
    StringBuilder out = new StringBuilder(message.length() + 32);
    out.append("{\"error\":");
    string(out, message);
    return out.append(",\"status\":").append(status).append("}\n").toString();
  }
}
