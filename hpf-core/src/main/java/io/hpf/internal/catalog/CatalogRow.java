package io.hpf.internal.catalog;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.ByteWriter;
import java.util.Arrays;

/**
 * One catalog row on its own: as a catalog block holds it (FORMAT.md "Catalog"), with no prefix
 * shared with a row before. A writer keeps the rows it has yet to sort this way (a fifth of the
 * memory of their objects) and reads them back with the catalog's own parser, checks included.
 */
public final class CatalogRow {
  private CatalogRow() {}

  /** The row of {@code entry}, whose name's UTF-8 bytes are {@code name}. */
  public static byte[] encode(byte[] name, EntryInfo entry) {
    ByteWriter out = new ByteWriter(name.length + 40);
    CatalogWriter.writeRow(out, name, 0, entry);
    return out.toByteArray();
  }

  /** The row's entry. */
  public static EntryInfo decode(byte[] row) throws CorruptArchiveException {
    BlockRows rows = new BlockRows("rows being sorted", row, 1);
    rows.next();
    EntryInfo entry = rows.row();
    if (rows.next()) {
      throw new IllegalStateException("one row holds two");
    }
    return entry;
  }

  /** The UTF-8 bytes of the row's name. */
  public static byte[] name(byte[] row) {
    int start = nameStart(row);
    return Arrays.copyOfRange(row, start, start + nameLength(row));
  }

  /** Two rows by their names' bytes, unsigned: the catalog's order. */
  public static int compareNames(byte[] a, byte[] b) {
    int aStart = nameStart(a);
    int bStart = nameStart(b);
    return Arrays.compareUnsigned(
        a, aStart, aStart + nameLength(a), b, bStart, bStart + nameLength(b));
  }

  /** Where the row's flags and fields begin, after its name. */
  static int fieldsStart(byte[] row) {
    return nameStart(row) + nameLength(row);
  }

  // A row written here starts with a shared length of 0 (one byte), then the name's length.
  private static int nameLength(byte[] row) {
    int length = 0;
    for (int i = 1, shift = 0; ; i++, shift += 7) {
      length |= (row[i] & 0x7F) << shift;
      if (row[i] >= 0) {
        return length;
      }
    }
  }

  private static int nameStart(byte[] row) {
    int i = 1;
    while (row[i] < 0) {
      i++;
    }
    return i + 1;
  }
}
