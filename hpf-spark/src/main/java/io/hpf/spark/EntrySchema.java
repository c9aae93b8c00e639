package io.hpf.spark;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The columns of an archive as a DataFrame: one row per live entry. The names are those of Spark's
 * {@code binaryFile} source where it has them ({@code path}, {@code modificationTime}, {@code
 * length}, {@code content}), so moving from {@code binaryFile} means changing the format's name.
 */
public final class EntrySchema {
  /** The archive's location, "/" and the entry's name. */
  public static final String PATH = "path";

  /** The entry's name in the archive. */
  public static final String NAME = "name";

  /** Content bytes (after decompression). */
  public static final String LENGTH = "length";

  /** The entry's modification time (a timestamp, millisecond precision). */
  public static final String MODIFICATION_TIME = "modificationTime";

  /** The entry's bytes. */
  public static final String CONTENT = "content";

  /** The entry's user attributes. */
  public static final String ATTRIBUTES = "attributes";

  public static final StructType SCHEMA =
      new StructType()
          .add(PATH, DataTypes.StringType, false)
          .add(NAME, DataTypes.StringType, false)
          .add(LENGTH, DataTypes.LongType, false)
          .add(MODIFICATION_TIME, DataTypes.TimestampType, false)
          .add(CONTENT, DataTypes.BinaryType, false)
          .add(
              ATTRIBUTES,
              DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType, false),
              false);

  private EntrySchema() {}
}
