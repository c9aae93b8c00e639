package io.hpf.spark.read;

import io.hpf.archive.model.EntryInfo;
import io.hpf.spark.EntrySchema;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.sources.AlwaysFalse;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;

/**
 * The Spark filters an archive evaluates itself, on catalog and index metadata, before any content
 * is read: {@code name}/{@code path} equality, IN, prefix, suffix and substring; {@code length} and
 * {@code modificationTime} comparisons; and, or, not of those. Evaluation is exact (every column is
 * non-null, and a filter with a null literal is left to Spark), so Spark does not evaluate a pushed
 * filter again. Anything else, attributes included (Spark pushes no map lookup), Spark evaluates.
 */
final class EntryFilters {
  private EntryFilters() {}

  static boolean supported(Filter f) {
    if (f instanceof And a) {
      return supported(a.left()) && supported(a.right());
    }
    if (f instanceof Or o) {
      return supported(o.left()) && supported(o.right());
    }
    if (f instanceof Not n) {
      return supported(n.child());
    }
    if (f instanceof AlwaysTrue || f instanceof AlwaysFalse) {
      return true;
    }
    if (f instanceof IsNull || f instanceof IsNotNull) {
      return true; // no column of ours is ever null
    }
    if (f instanceof EqualTo e) {
      return comparable(e.attribute(), e.value(), true);
    }
    if (f instanceof EqualNullSafe e) {
      return comparable(e.attribute(), e.value(), true);
    }
    if (f instanceof GreaterThan g) {
      return comparable(g.attribute(), g.value(), false);
    }
    if (f instanceof GreaterThanOrEqual g) {
      return comparable(g.attribute(), g.value(), false);
    }
    if (f instanceof LessThan l) {
      return comparable(l.attribute(), l.value(), false);
    }
    if (f instanceof LessThanOrEqual l) {
      return comparable(l.attribute(), l.value(), false);
    }
    if (f instanceof In in) {
      for (Object v : in.values()) {
        if (!comparable(in.attribute(), v, true)) {
          return false;
        }
      }
      return true;
    }
    if (f instanceof StringStartsWith s) {
      return isText(s.attribute()) && s.value() != null;
    }
    if (f instanceof StringEndsWith s) {
      return isText(s.attribute()) && s.value() != null;
    }
    if (f instanceof StringContains s) {
      return isText(s.attribute()) && s.value() != null;
    }
    return false;
  }

  private static boolean isText(String column) {
    return column.equals(EntrySchema.NAME) || column.equals(EntrySchema.PATH);
  }

  /** Text only by equality (Spark orders strings by UTF-8 bytes, Java by UTF-16 units). */
  private static boolean comparable(String column, Object value, boolean equality) {
    if (value == null) {
      return false;
    }
    if (isText(column)) {
      return equality && value instanceof String;
    }
    if (column.equals(EntrySchema.LENGTH)) {
      return value instanceof Long || value instanceof Integer;
    }
    if (column.equals(EntrySchema.MODIFICATION_TIME)) {
      return value instanceof Timestamp || value instanceof Instant;
    }
    return false;
  }

  /** Whether {@code row} of the archive at {@code archive} passes {@code f} (supported). */
  static boolean test(Filter f, String archive, EntryInfo row) {
    if (f instanceof And a) {
      return test(a.left(), archive, row) && test(a.right(), archive, row);
    }
    if (f instanceof Or o) {
      return test(o.left(), archive, row) || test(o.right(), archive, row);
    }
    if (f instanceof Not n) {
      return !test(n.child(), archive, row);
    }
    if (f instanceof AlwaysTrue || f instanceof IsNotNull) {
      return true;
    }
    if (f instanceof AlwaysFalse || f instanceof IsNull) {
      return false;
    }
    if (f instanceof EqualTo e) {
      return compare(e.attribute(), e.value(), archive, row) == 0;
    }
    if (f instanceof EqualNullSafe e) {
      return compare(e.attribute(), e.value(), archive, row) == 0;
    }
    if (f instanceof GreaterThan g) {
      return compare(g.attribute(), g.value(), archive, row) > 0;
    }
    if (f instanceof GreaterThanOrEqual g) {
      return compare(g.attribute(), g.value(), archive, row) >= 0;
    }
    if (f instanceof LessThan l) {
      return compare(l.attribute(), l.value(), archive, row) < 0;
    }
    if (f instanceof LessThanOrEqual l) {
      return compare(l.attribute(), l.value(), archive, row) <= 0;
    }
    if (f instanceof In in) {
      for (Object v : in.values()) {
        if (compare(in.attribute(), v, archive, row) == 0) {
          return true;
        }
      }
      return false;
    }
    if (f instanceof StringStartsWith s) {
      return text(s.attribute(), archive, row).startsWith(s.value());
    }
    if (f instanceof StringEndsWith s) {
      return text(s.attribute(), archive, row).endsWith(s.value());
    }
    if (f instanceof StringContains s) {
      return text(s.attribute(), archive, row).contains(s.value());
    }
    throw new IllegalArgumentException("not an archive filter: " + f);
  }

  private static String text(String column, String archive, EntryInfo row) {
    return column.equals(EntrySchema.NAME) ? row.name() : archive + "/" + row.name();
  }

  /** The row's value against {@code value}: 0 equal (for text: 0 or 1, equal or not). */
  private static int compare(String column, Object value, String archive, EntryInfo row) {
    if (isText(column)) {
      return text(column, archive, row).equals(value) ? 0 : 1;
    }
    if (column.equals(EntrySchema.LENGTH)) {
      return Long.compare(row.rawLength(), ((Number) value).longValue());
    }
    return Long.compare(Math.multiplyExact(row.mtimeMillis(), 1000L), micros(value));
  }

  /** A timestamp literal in microseconds since the epoch, as Spark holds timestamps. */
  static long micros(Object value) {
    Instant instant =
        value instanceof Timestamp t ? t.toInstant() : (Instant) value; // checked by comparable
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }

  /**
   * The names a conjunction of pushed filters allows at most ({@code name =} and {@code IN}, and
   * {@code path} ones under this archive), or null when it allows any: these are looked up in the
   * hash index one by one instead of listing the catalog.
   */
  static Set<String> lookupNames(List<Filter> conjuncts, String archive) {
    Set<String> names = null;
    for (Filter f : conjuncts) {
      Set<String> allowed = null;
      if (f instanceof EqualTo e && isText(e.attribute())) {
        allowed = new HashSet<>();
        addName(allowed, e.attribute(), (String) e.value(), archive);
      } else if (f instanceof In in && isText(in.attribute())) {
        allowed = new LinkedHashSet<>();
        for (Object v : in.values()) {
          addName(allowed, in.attribute(), (String) v, archive);
        }
      }
      if (allowed != null) {
        if (names == null) {
          names = allowed;
        } else {
          names.retainAll(allowed);
        }
      }
    }
    return names;
  }

  private static void addName(Set<String> names, String column, String value, String archive) {
    if (column.equals(EntrySchema.NAME)) {
      names.add(value);
    } else if (value.startsWith(archive + "/")) {
      names.add(value.substring(archive.length() + 1));
    }
  }

  /** The longest {@code name} prefix a conjunction requires, "" for none. */
  static String namePrefix(List<Filter> conjuncts) {
    String prefix = "";
    for (Filter f : conjuncts) {
      if (f instanceof StringStartsWith s
          && s.attribute().equals(EntrySchema.NAME)
          && s.value().length() > prefix.length()) {
        prefix = s.value();
      }
    }
    return prefix;
  }
}
