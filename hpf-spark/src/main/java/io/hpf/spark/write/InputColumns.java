package io.hpf.spark.write;

import io.hpf.spark.EntrySchema;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Where a written DataFrame has the columns an entry is made of: {@code name} (string) and {@code
 * content} (binary, or string written as UTF-8), optionally {@code modificationTime} (timestamp)
 * and {@code attributes} (map of strings). {@code path} and {@code length}, which a read of an
 * archive or of {@code binaryFile} has, are ignored; any other column is an error, so nothing a
 * user meant to keep is dropped silently. Indexes are -1 for a column the DataFrame has not.
 */
record InputColumns(int name, int content, boolean contentIsText, int mtime, int attributes)
    implements Serializable {
  static InputColumns of(StructType schema) {
    int name = -1;
    int content = -1;
    boolean text = false;
    int mtime = -1;
    int attributes = -1;
    List<String> unknown = new ArrayList<>();
    StructField[] fields = schema.fields();
    for (int i = 0; i < fields.length; i++) {
      String column = fields[i].name();
      DataType type = fields[i].dataType();
      if (column.equals(EntrySchema.NAME)) {
        expect(column, type, DataTypes.StringType);
        name = i;
      } else if (column.equals(EntrySchema.CONTENT)) {
        text = type.equals(DataTypes.StringType);
        if (!text) {
          expect(column, type, DataTypes.BinaryType);
        }
        content = i;
      } else if (column.equals(EntrySchema.MODIFICATION_TIME)) {
        expect(column, type, DataTypes.TimestampType);
        mtime = i;
      } else if (column.equals(EntrySchema.ATTRIBUTES)) {
        if (!(type instanceof MapType m)
            || !m.keyType().equals(DataTypes.StringType)
            || !m.valueType().equals(DataTypes.StringType)) {
          throw new IllegalArgumentException(
              "column 'attributes' must be a map<string,string>, not " + type.simpleString());
        }
        attributes = i;
      } else if (!column.equals(EntrySchema.PATH) && !column.equals(EntrySchema.LENGTH)) {
        unknown.add(column);
      }
    }
    if (name < 0 || content < 0) {
      throw new IllegalArgumentException(
          "an archive is written from columns 'name' (string) and 'content' (binary); this"
              + " DataFrame has "
              + List.of(schema.fieldNames()));
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "an archive does not store the columns "
              + unknown
              + ": write name, content, and optionally modificationTime and attributes");
    }
    return new InputColumns(name, content, text, mtime, attributes);
  }

  private static void expect(String column, DataType actual, DataType expected) {
    if (!actual.equals(expected)) {
      throw new IllegalArgumentException(
          "column '"
              + column
              + "' must be "
              + expected.simpleString()
              + ", not "
              + actual.simpleString());
    }
  }
}
