package io.hpf.server.http;

import io.hpf.archive.EntryJson;

/**
 * The server's error bodies; strings and rows are {@link EntryJson}'s, as every hpf tool writes
 * them.
 */
final class Json {
  private Json() {}

  /** {@code {"error":message,"status":status}}. */
  static String error(int status, String message) {
    StringBuilder out = new StringBuilder(message.length() + 32);
    out.append("{\"error\":");
    EntryJson.string(out, message);
    return out.append(",\"status\":").append(status).append("}\n").toString();
  }
}
