package io.hpf.spark.pack;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files one pack task reads: files whose first blocks share a host, in name order, up to a
 * number of bytes; the host is the task's preferred location.
 */
record PackGroup(String host, List<ListedFile> files, long bytes) implements Serializable {
  PackGroup {
    files = List.copyOf(files);
  }

  /**
   * Groups files by the first host of their first block (files without blocks go anywhere), then
   * cuts each host's files, in name order, into groups of at most {@code maxBytes} (a larger file
   * is a group alone) and {@code maxFiles}.
   */
  static List<PackGroup> plan(List<ListedFile> files, long maxBytes, int maxFiles) {
    Map<String, List<ListedFile>> byHost = new LinkedHashMap<>();
    List<ListedFile> sorted = new ArrayList<>(files);
    sorted.sort(Comparator.comparing(ListedFile::name));
    for (ListedFile f : sorted) {
      String[] hosts = f.hosts();
      byHost.computeIfAbsent(hosts.length > 0 ? hosts[0] : "", h -> new ArrayList<>()).add(f);
    }
    List<PackGroup> groups = new ArrayList<>();
    for (var e : byHost.entrySet()) {
      List<ListedFile> current = new ArrayList<>();
      long bytes = 0;
      for (ListedFile f : e.getValue()) {
        if (!current.isEmpty() && (bytes + f.size() > maxBytes || current.size() >= maxFiles)) {
          groups.add(new PackGroup(e.getKey(), current, bytes));
          current = new ArrayList<>();
          bytes = 0;
        }
        current.add(f);
        bytes += f.size();
      }
      if (!current.isEmpty()) {
        groups.add(new PackGroup(e.getKey(), current, bytes));
      }
    }
    return groups;
  }
}
