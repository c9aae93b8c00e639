package io.hpf.spark.read;

import io.hpf.spark.HadoopConf;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code count()} (and {@code count(column)}: no column is ever null) of the rows the pushed
 * filters keep, counted on the driver from catalogs, or the index and headers for named entries,
 * with no content read and no task: Spark's aggregate is pushed down whole and the answer is a
 * one-row local table.
 */
final class CountScan extends DriverScan {
  private CountScan(long count, int columns, String description) {
    super(row(count, columns), schema(columns), description);
  }

  /** One row: the count in each column Spark asked for (count(*), count(name), ...). */
  private static InternalRow[] row(long count, int columns) {
    Object[] values = new Object[columns];
    java.util.Arrays.fill(values, count);
    return new InternalRow[] {new GenericInternalRow(values)};
  }

  private static StructType schema(int columns) {
    StructType schema = new StructType();
    for (int c = 0; c < columns; c++) {
      schema = schema.add("count" + c, DataTypes.LongType, false);
    }
    return schema;
  }

  /** Whether the aggregation is counts only, with no grouping: what this scan answers. */
  static boolean answers(Aggregation aggregation) {
    if (aggregation.groupByExpressions().length > 0) {
      return false;
    }
    for (AggregateFunc f : aggregation.aggregateExpressions()) {
      boolean countOfColumn =
          f instanceof Count c && !c.isDistinct() && c.column() instanceof NamedReference;
      if (!(f instanceof CountStar) && !countOfColumn) { // count(expression) may skip rows
        return false;
      }
    }
    return true;
  }

  static CountScan plan(
      HadoopConf conf, ReadOptions options, List<Filter> filters, Aggregation aggregation)
      throws IOException {
    long[] count = {0};
    ScannedArchives.forEach(
        conf,
        options,
        filters,
        (storage, reader, rows) -> {
          rows.forEach(reader, row -> count[0]++);
          return true;
        });
    return new CountScan(
        count[0],
        aggregation.aggregateExpressions().length,
        "hpf count on the driver " + options.paths() + " filters " + filters);
  }
}
