package io.hpf.server.http;

import io.hpf.archive.EntryJson;
import io.hpf.server.ServerOptions;
import io.hpf.server.archives.ArchiveDirectory;
import io.hpf.server.hot.SlidingTopK;
import io.hpf.server.metrics.ServerMetrics;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;

/**
 * The server's own routes: {@code /} (the archives served, JSON), {@code /_metrics} (Prometheus),
 * {@code /_hot} (the most requested archives and directories with their counts and error bounds,
 * JSON) and {@code /_health}.
 */
final class AdminResponder {
  private final ArchiveDirectory directory;
  private final ServerMetrics metrics;
  private final SlidingTopK hotArchives;
  private final SlidingTopK hotPrefixes;
  private final ServerOptions options;

  AdminResponder(
      ArchiveDirectory directory,
      ServerMetrics metrics,
      SlidingTopK hotArchives,
      SlidingTopK hotPrefixes,
      ServerOptions options) {
    this.directory = directory;
    this.metrics = metrics;
    this.hotArchives = hotArchives;
    this.hotPrefixes = hotPrefixes;
    this.options = options;
  }

  void respond(Exchange ex, String path) {
    ex.route("admin");
    if (path.isEmpty()) {
      StringBuilder out = new StringBuilder("{\"archives\":[");
      boolean first = true;
      for (String id : directory.ids()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        EntryJson.string(out, id);
      }
      ex.sendText(HttpResponseStatus.OK, "application/json", out.append("]}\n").toString());
    } else if (path.equals("_metrics")) {
      ex.sendText(
          HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8", metrics.render());
    } else if (path.equals("_hot")) {
      StringBuilder out = new StringBuilder("{\"windowMillis\":").append(options.windowMillis);
      out.append(",\"archives\":");
      top(out, hotArchives);
      out.append(",\"prefixes\":");
      top(out, hotPrefixes);
      ex.sendText(HttpResponseStatus.OK, "application/json", out.append("}\n").toString());
    } else if (path.equals("_health")) {
      ex.sendText(HttpResponseStatus.OK, "application/json", "{\"status\":\"ok\"}\n");
    } else {
      ex.error(HttpResponseStatus.NOT_FOUND, "no route '/" + path + "'");
    }
  }

  private void top(StringBuilder out, SlidingTopK counts) {
    List<SlidingTopK.Ranked> top = counts.top(options.hotK);
    out.append('[');
    for (int i = 0; i < top.size(); i++) {
      SlidingTopK.Ranked r = top.get(i);
      if (i > 0) {
        out.append(',');
      }
      out.append("{\"key\":");
      EntryJson.string(out, r.key());
      out.append(",\"count\":").append(r.count()).append(",\"error\":").append(r.error());
      out.append('}');
    }
    out.append(']');
  }
}
