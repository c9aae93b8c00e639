package io.hpf.spark.read;

import io.hpf.archive.ArchiveReader;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.plan.ArchiveScope;
import io.hpf.select.Selector;
import io.hpf.spark.HadoopConf;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.sources.Filter;

/**
 * The archives a read covers (paths, globs, paths inside archives), opened on the driver in turn.
 */
final class ScannedArchives {
  /** What the driver does with one archive; false stops the walk. */
  interface Visitor {
    boolean visit(Storage storage, ArchiveReader reader, RowFilter rows) throws IOException;
  }

  private ScannedArchives() {}

  /** Visits each archive in the options' order; false if a visitor stopped the walk. */
  static boolean forEach(
      HadoopConf conf, ReadOptions options, List<Filter> filters, Visitor visitor)
      throws IOException {
    Configuration hadoop = conf.get();
    Selector selector = Selector.parse(options.select());
    for (String path : options.paths()) {
      for (ArchiveScope scope : ArchiveScope.resolve(new Path(path), hadoop)) {
        try (Storage storage = HadoopArchives.open(scope.archive(), hadoop);
            ArchiveReader reader = ArchiveReader.open(storage)) {
          RowFilter rows = new RowFilter(scope.archive().toString(), scope, selector, filters);
          if (!visitor.visit(storage, reader, rows)) {
            return false;
          }
        }
      }
    }
    return true;
  }
}
