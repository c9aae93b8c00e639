package io.hpf.server.http;

import java.util.Locale;
import java.util.Map;

/** The Content-Type of an entry, from its name's extension; octet-stream when unknown. */
final class ContentTypes {
  private ContentTypes() {}

  static final String OCTET_STREAM = "application/octet-stream";

  private static final Map<String, String> BY_EXTENSION =
      Map.ofEntries(
          Map.entry("txt", "text/plain; charset=utf-8"),
          Map.entry("log", "text/plain; charset=utf-8"),
          Map.entry("md", "text/markdown; charset=utf-8"),
          Map.entry("csv", "text/csv; charset=utf-8"),
          Map.entry("tsv", "text/tab-separated-values; charset=utf-8"),
          Map.entry("html", "text/html; charset=utf-8"),
          Map.entry("htm", "text/html; charset=utf-8"),
          Map.entry("css", "text/css; charset=utf-8"),
          Map.entry("js", "text/javascript; charset=utf-8"),
          Map.entry("json", "application/json"),
          Map.entry("xml", "application/xml"),
          Map.entry("pdf", "application/pdf"),
          Map.entry("zip", "application/zip"),
          Map.entry("gz", "application/gzip"),
          Map.entry("jpg", "image/jpeg"),
          Map.entry("jpeg", "image/jpeg"),
          Map.entry("png", "image/png"),
          Map.entry("gif", "image/gif"),
          Map.entry("webp", "image/webp"),
          Map.entry("svg", "image/svg+xml"),
          Map.entry("ico", "image/x-icon"),
          Map.entry("mp3", "audio/mpeg"),
          Map.entry("wav", "audio/wav"),
          Map.entry("mp4", "video/mp4"),
          Map.entry("webm", "video/webm"),
          Map.entry("c", "text/plain; charset=utf-8"),
          Map.entry("h", "text/plain; charset=utf-8"),
          Map.entry("java", "text/plain; charset=utf-8"),
          Map.entry("py", "text/plain; charset=utf-8"),
          Map.entry("sh", "text/plain; charset=utf-8"));

  static String of(String name) {
    int slash = name.lastIndexOf('/');
    int dot = name.lastIndexOf('.');
    if (dot <= slash + 1 || dot == name.length() - 1) {
      return OCTET_STREAM;
    }
    String ext = name.substring(dot + 1);
    String type = BY_EXTENSION.get(ext);
    if (type == null) {
      type = BY_EXTENSION.get(ext.toLowerCase(Locale.ROOT));
    }
    return type == null ? OCTET_STREAM : type;
  }
}
