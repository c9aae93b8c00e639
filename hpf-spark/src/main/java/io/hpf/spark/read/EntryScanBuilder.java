package io.hpf.spark.read;

import io.hpf.spark.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the filters the archive evaluates itself ({@link EntryFilters}) and the columns the query
 * needs: without {@code content} no part file is read.
 */
final class EntryScanBuilder
    implements SupportsPushDownFilters,
        SupportsPushDownRequiredColumns,
        SupportsPushDownAggregates {
  private final HadoopConf conf;
  private final ReadOptions options;
  private StructType required;
  private Filter[] pushed = new Filter[0];
  private Aggregation counted;

  EntryScanBuilder(HadoopConf conf, ReadOptions options, StructType schema) {
    this.conf = conf;
    this.options = options;
    this.required = schema;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    List<Filter> taken = new ArrayList<>();
    List<Filter> left = new ArrayList<>();
    for (Filter f : filters) {
      (EntryFilters.supported(f) ? taken : left).add(f);
    }
    pushed = taken.toArray(new Filter[0]);
    return left.toArray(new Filter[0]); // Spark evaluates these after the scan
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed.clone();
  }

  /** Counts with no grouping are answered whole ({@link CountScan}); other aggregates, by Spark. */
  @Override
  public boolean pushAggregation(Aggregation aggregation) {
    if (!CountScan.answers(aggregation)) {
      return false;
    }
    counted = aggregation;
    return true;
  }

  @Override
  public boolean supportCompletePushDown(Aggregation aggregation) {
    return CountScan.answers(aggregation);
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    required = requiredSchema;
  }

  /**
   * A count, or a lookup by name small enough, is answered on the driver; anything else, by tasks.
   */
  @Override
  public Scan build() {
    List<Filter> filters = List.of(pushed);
    try {
      if (counted != null) {
        return CountScan.plan(conf, options, filters, counted);
      }
      LookupScan lookup = LookupScan.plan(conf, options, filters, required);
      return lookup != null ? lookup : new EntryScan(conf, options, filters, required);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }
}
