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

  /** What a PUT of the HTTP API wrote: where, in which generation, with which ETag. */
  static String written(String archive, String name, long generation, String etag) {
    StringBuilder out = new StringBuilder(96 + name.length());
    out.append("{\"archive\":");
    EntryJson.string(out, archive);
    out.append(",\"name\":");
    EntryJson.string(out, name);
    out.append(",\"generation\":").append(generation).append(",\"etag\":");
    EntryJson.string(out, etag);
    return out.append("}\n").toString();
  }
}
