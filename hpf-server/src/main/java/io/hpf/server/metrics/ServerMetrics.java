package io.hpf.server.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What the server counts, shown at {@code /_metrics} in Prometheus's text format: requests by route
 * and status, latency histograms by route, bytes out, reader hits, misses and evictions, and gauges
 * read when asked (open readers, index memory, connections).
 */
public final class ServerMetrics {
  private final Map<String, RouteCounts> routes = new ConcurrentHashMap<>();
  private final Map<String, Gauge> gauges = new TreeMap<>();

  /** Bytes of response bodies sent. */
  public final LongAdder bytesOut = new LongAdder();

  /** Requests whose archive reader was open already. */
  public final LongAdder readerHits = new LongAdder();

  /** Requests that had to open their archive's reader. */
  public final LongAdder readerMisses = new LongAdder();

  /** Readers closed to stay within the memory budget or because they were idle. */
  public final LongAdder readerEvictions = new LongAdder();

  /** New generations picked up by refreshes. */
  public final LongAdder refreshes = new LongAdder();

  /** Entries whose content failed its checks (each also logged with archive and entry). */
  public final LongAdder corruptEntries = new LongAdder();

  private record Gauge(String help, LongSupplier value) {}

  /** One route's requests by status code (100-599) and their latencies. */
  private static final class RouteCounts {
    final AtomicLongArray byStatus = new AtomicLongArray(600);
    final LatencyHistogram latency = new LatencyHistogram();
  }

  /** Registers a gauge, read each time the metrics are shown. */
  public synchronized void gauge(String name, String help, LongSupplier value) {
    gauges.put(name, new Gauge(help, value));
  }

  /** Counts a finished request. */
  public void request(String route, int status, long nanos) {
    RouteCounts counts = routes.get(route);
    if (counts == null) {
      counts = routes.computeIfAbsent(route, k -> new RouteCounts());
    }
    counts.byStatus.incrementAndGet(status >= 100 && status < 600 ? status : 599);
    counts.latency.record(nanos);
  }

  /** The metrics in Prometheus's text exposition format (version 0.0.4). */
  public synchronized String render() {
    StringBuilder out = new StringBuilder(4096);
    out.append("# HELP hpf_requests_total Requests answered, by route and status.\n");
    out.append("# TYPE hpf_requests_total counter\n");
    Map<String, RouteCounts> sorted = new TreeMap<>(routes);
    sorted.forEach(
        (route, counts) -> {
          for (int status = 100; status < 600; status++) {
            long n = counts.byStatus.get(status);
            if (n > 0) {
              out.append("hpf_requests_total{route=\"")
                  .append(route)
                  .append("\",status=\"")
                  .append(status)
                  .append("\"} ")
                  .append(n)
                  .append('\n');
            }
          }
        });
    out.append("# HELP hpf_request_duration_seconds Time from request to response sent.\n");
    out.append("# TYPE hpf_request_duration_seconds histogram\n");
    sorted.forEach(
        (route, counts) ->
            counts.latency.write(out, "hpf_request_duration_seconds", "route=\"" + route + "\""));
    counter(out, "hpf_bytes_out_total", "Bytes of response bodies sent.", bytesOut);
    counter(out, "hpf_reader_hits_total", "Requests whose archive was open.", readerHits);
    counter(out, "hpf_reader_misses_total", "Requests that opened their archive.", readerMisses);
    counter(
        out,
        "hpf_reader_evictions_total",
        "Readers closed for memory or idleness.",
        readerEvictions);
    counter(out, "hpf_refreshes_total", "New generations picked up.", refreshes);
    counter(out, "hpf_corrupt_entries_total", "Entries that failed their checks.", corruptEntries);
    gauges.forEach(
        (name, g) -> {
          out.append("# HELP ").append(name).append(' ').append(g.help()).append('\n');
          out.append("# TYPE ").append(name).append(" gauge\n");
          out.append(name).append(' ').append(g.value().getAsLong()).append('\n');
        });
    return out.toString();
  }

  private static void counter(StringBuilder out, String name, String help, LongAdder value) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(" counter\n");
    out.append(name).append(' ').append(value.sum()).append('\n');
  }
}
