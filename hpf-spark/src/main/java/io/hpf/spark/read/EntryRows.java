package io.hpf.spark.read;

import io.hpf.spark.EntrySchema;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Makes rows of the columns a query selects, in Spark's internal types, from an entry's metadata
 * and, when {@code content} is selected, its bytes: one rule for rows made by tasks and by the
 * driver.
 */
final class EntryRows {
  /** An entry's checked content, read only when the query selects it. */
  interface Content {
    byte[] read() throws IOException;
  }

  private final String[] columns;

  EntryRows(StructType required) {
    this.columns = required.fieldNames();
    for (StructField f : required.fields()) {
      EntrySchema.SCHEMA.apply(f.name()); // fails now on a column the schema has not
    }
  }

  boolean withContent() {
    return Arrays.asList(columns).contains(EntrySchema.CONTENT);
  }

  /**
   * @param attributes the entry's attributes, or null when the query does not select them
   */
  InternalRow row(
      String archive,
      String name,
      long length,
      long mtimeMillis,
      Map<String, String> attributes,
      Content content)
      throws IOException {
    Object[] values = new Object[columns.length];
    for (int c = 0; c < columns.length; c++) {
      String column = columns[c];
      if (column.equals(EntrySchema.NAME)) {
        values[c] = UTF8String.fromString(name);
      } else if (column.equals(EntrySchema.PATH)) {
        values[c] = UTF8String.fromString(archive + "/" + name);
      } else if (column.equals(EntrySchema.LENGTH)) {
        values[c] = length;
      } else if (column.equals(EntrySchema.MODIFICATION_TIME)) {
        values[c] = Math.multiplyExact(mtimeMillis, 1000L); // Spark: microseconds
      } else if (column.equals(EntrySchema.ATTRIBUTES)) {
        values[c] = map(attributes);
      } else {
        values[c] = content.read();
      }
    }
    return new GenericInternalRow(values);
  }

  private static ArrayBasedMapData map(Map<String, String> attributes) {
    Object[] keys = new Object[attributes.size()];
    Object[] values = new Object[attributes.size()];
    int i = 0;
    for (var e : attributes.entrySet()) {
      keys[i] = UTF8String.fromString(e.getKey());
      values[i++] = UTF8String.fromString(e.getValue());
    }
    return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
  }

  /** The error for content over the option {@value ReadOptions#MAX_ENTRY_BYTES}. */
  static IOException tooLarge(String archive, String name, long length, long maxEntryBytes) {
    return new IOException(
        archive
            + "/"
            + name
            + ": "
            + length
            + " bytes, over the option "
            + ReadOptions.MAX_ENTRY_BYTES
            + " ("
            + maxEntryBytes
            + "): raise it (at most "
            + ReadOptions.MAX_BINARY_BYTES
            + ") or leave the content column out");
  }
}
