package io.hpf.spark;

import io.hpf.spark.read.ArchiveTable;
import io.hpf.spark.write.ArchiveWrite;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code hpf} data source: {@code spark.read.format("hpf").load(archives...)} and {@code
 * df.write.format("hpf").mode(...).save(archive)}.
 *
 * <p>Reads are DataSource V2 ({@link ArchiveTable}). Writes take Spark's save path for sources that
 * create their relation ({@link CreatableRelationProvider}): for a path-based V2 table Spark's
 * {@code DataFrameWriter} accepts only append and overwrite, and refuses errorifexists (its
 * default) and ignore; this path gets all four modes, and {@link ArchiveWrite} commits the write as
 * a V2 batch write would, once, on the driver.
 */
public final class HpfDataSource
    implements TableProvider, DataSourceRegister, CreatableRelationProvider {
  /** The short name: {@code format("hpf")}. */
  public static final String SHORT_NAME = "hpf";

  @Override
  public String shortName() {
    return SHORT_NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return EntrySchema.SCHEMA;
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new ArchiveTable(properties);
  }

  @Override
  public BaseRelation createRelation(
      SQLContext sqlContext,
      SaveMode mode,
      scala.collection.immutable.Map<String, String> parameters,
      Dataset<Row> data) {
    ArchiveWrite.run(mode, CollectionConverters.asJava(parameters), data);
    return new WrittenRelation(sqlContext);
  }

  /** What Spark's save path gets back: the schema of the archive's rows. */
  private static final class WrittenRelation extends BaseRelation {
    private final SQLContext sqlContext;

    WrittenRelation(SQLContext sqlContext) {
      this.sqlContext = sqlContext;
    }

    @Override
    public SQLContext sqlContext() {
      return sqlContext;
    }

    @Override
    public StructType schema() {
      return EntrySchema.SCHEMA;
    }
  }
}
