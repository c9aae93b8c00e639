package io.hpf.select;

import io.hpf.archive.model.EntryInfo;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Parses the {@code --select} grammar (docs/MAPREDUCE.md "Selecting entries"):
 *
 * <pre>
 *   expression := and ( "or" and )*
 *   and        := unary ( ["and"] unary )*          terms side by side must all hold
 *   unary      := "not" unary | "(" expression ")" | term
 *   term       := name:GLOB | prefix:TEXT | regex:REGEX | size:[MIN]..[MAX] | size:N
 *               | mtime:[FROM]..[TO] | attr:KEY | attr:KEY=VALUE
 * </pre>
 *
 * Parentheses inside a value belong to it when balanced ({@code regex:(a|b)/.*}). A value may be
 * quoted with single quotes ({@code name:'my dir/*'}, {@code ''} for a quote). Sizes take k, m, g,
 * t suffixes (powers of 1024) and are inclusive; times are ISO-8601 dates or instants in UTC, FROM
 * inclusive and TO exclusive. An empty expression selects everything.
 */
final class SelectorParser {
  private final String text;
  private final List<Token> tokens;
  private int next;

  private record Token(String text, String value, int position, boolean bare) {}

  private SelectorParser(String text) {
    this.text = text;
    this.tokens = tokenize(text);
  }

  /**
   * The selector an expression describes.
   *
   * @throws SelectorSyntaxException pointing at the bad token
   */
  static Selector parse(String expression) {
    SelectorParser parser = new SelectorParser(expression);
    if (parser.tokens.isEmpty()) {
      return Selector.all();
    }
    Selector s = parser.or();
    if (parser.next < parser.tokens.size()) {
      Token t = parser.tokens.get(parser.next);
      throw parser.error(t, "unexpected '" + t.text() + "'");
    }
    return s;
  }

  private Selector or() {
    Selector left = and();
    while (peekKeyword("or")) {
      next++;
      Selector a = left;
      Selector b = and();
      left = e -> a.select(e) || b.select(e);
    }
    return left;
  }

  private Selector and() {
    Selector left = unary();
    while (next < tokens.size() && !peekKeyword("or") && !tokens.get(next).text().equals(")")) {
      if (peekKeyword("and")) {
        next++;
      }
      Selector a = left;
      Selector b = unary();
      left = e -> a.select(e) && b.select(e);
    }
    return left;
  }

  private Selector unary() {
    if (next >= tokens.size()) {
      throw error(null, "a term is missing at the end");
    }
    Token t = tokens.get(next++);
    if (t.bare() && t.text().equals("not")) {
      Selector inner = unary();
      return e -> !inner.select(e);
    }
    if (t.bare() && t.text().equals("(")) {
      Selector inner = or();
      if (next >= tokens.size() || !tokens.get(next).text().equals(")")) {
        throw error(next < tokens.size() ? tokens.get(next) : null, "')' expected");
      }
      next++;
      return inner;
    }
    return term(t);
  }

  private boolean peekKeyword(String keyword) {
    return next < tokens.size()
        && tokens.get(next).bare()
        && tokens.get(next).text().equals(keyword);
  }

  private Selector term(Token t) {
    int colon = t.value().indexOf(':');
    if (colon <= 0 || !t.bare() && t.text().indexOf(':') < 0) {
      throw error(
          t, "'" + t.text() + "' is not a term (name:, prefix:, regex:, size:, mtime:, attr:)");
    }
    String field = t.value().substring(0, colon);
    String value = t.value().substring(colon + 1);
    try {
      // Not a switch on strings: that compiles to String.hashCode(), which forbidden-apis bans.
      if (field.equals("name")) {
        Pattern p = Glob.compile(value);
        return e -> p.matcher(e.name()).matches();
      } else if (field.equals("prefix")) {
        return e -> e.name().startsWith(value);
      } else if (field.equals("regex")) {
        Pattern p = Pattern.compile(value);
        return e -> p.matcher(e.name()).matches();
      } else if (field.equals("size")) {
        long[] range = range(value, SelectorParser::bytes, true);
        return e -> e.rawLength() >= range[0] && e.rawLength() <= range[1];
      } else if (field.equals("mtime")) {
        long[] range = range(value, SelectorParser::millis, false);
        return e -> e.mtimeMillis() >= range[0] && e.mtimeMillis() < range[1];
      } else if (field.equals("attr")) {
        return attribute(value);
      }
      throw error(t, "unknown field '" + field + "' (name, prefix, regex, size, mtime, attr)");
    } catch (PatternSyntaxException e) {
      throw error(t, "bad regular expression: " + e.getDescription());
    } catch (IllegalArgumentException e) {
      if (e instanceof SelectorSyntaxException s) {
        throw s;
      }
      throw error(t, e.getMessage());
    }
  }

  private static Selector attribute(String value) {
    int eq = value.indexOf('=');
    if (value.isEmpty() || eq == 0) {
      throw new IllegalArgumentException("attr: needs a key (attr:KEY or attr:KEY=VALUE)");
    }
    if (eq < 0) {
      return e -> e.attributes().containsKey(value);
    }
    String key = value.substring(0, eq);
    String wanted = value.substring(eq + 1);
    return (EntryInfo e) -> wanted.equals(e.attributes().get(key));
  }

  private interface Bound {
    long parse(String text);
  }

  /** {@code A..B} with either side optional, or (for sizes) one exact value. */
  private static long[] range(String value, Bound bound, boolean exactAllowed) {
    int dots = value.indexOf("..");
    if (dots < 0) {
      if (!exactAllowed) {
        throw new IllegalArgumentException("a range FROM..TO is expected, got '" + value + "'");
      }
      long exact = bound.parse(value);
      return new long[] {exact, exact};
    }
    String from = value.substring(0, dots);
    String to = value.substring(dots + 2);
    long lo = from.isEmpty() ? Long.MIN_VALUE : bound.parse(from);
    long hi = to.isEmpty() ? Long.MAX_VALUE : bound.parse(to);
    if (from.isEmpty() && to.isEmpty()) {
      throw new IllegalArgumentException("a range needs at least one end");
    }
    return new long[] {lo, hi};
  }

  static long bytes(String text) {
    String t = text.toLowerCase(Locale.ROOT);
    int shift = 0;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'k' -> shift = 10;
        case 'm' -> shift = 20;
        case 'g' -> shift = 30;
        case 't' -> shift = 40;
        default -> shift = 0;
      }
    }
    String digits = shift == 0 ? t : t.substring(0, t.length() - 1);
    try {
      long n = Long.parseLong(digits);
      if (n < 0 || n > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a size (a number of bytes, with k, m, g or t)", e);
    }
  }

  static long millis(String text) {
    try {
      if (text.length() == 10) {
        return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
      }
      return Instant.parse(text).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a time (2024-01-31 or 2024-01-31T10:00:00Z)", e);
    }
  }

  private SelectorSyntaxException error(Token t, String problem) {
    return new SelectorSyntaxException(text, t == null ? text.length() : t.position(), problem);
  }

  /** Words, parentheses and quoted values; a quote inside a word quotes up to the next quote. */
  private static List<Token> tokenize(String text) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
        continue;
      }
      if (c == '(' || c == ')') {
        out.add(new Token(String.valueOf(c), String.valueOf(c), i, true));
        i++;
        continue;
      }
      int start = i;
      StringBuilder value = new StringBuilder();
      boolean quoted = false;
      int depth = 0; // parentheses inside a value (a regex's groups) belong to it when balanced
      while (i < text.length()) {
        c = text.charAt(i);
        if (c == '\'') {
          quoted = true;
          int j = i + 1;
          while (true) {
            if (j >= text.length()) {
              throw new SelectorSyntaxException(text, i, "unclosed quote");
            }
            if (text.charAt(j) == '\'') {
              if (j + 1 < text.length() && text.charAt(j + 1) == '\'') {
                value.append('\'');
                j += 2;
                continue;
              }
              break;
            }
            value.append(text.charAt(j++));
          }
          i = j + 1;
          continue;
        }
        if (Character.isWhitespace(c) || c == ')' && depth == 0) {
          break;
        }
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        value.append(c);
        i++;
      }
      out.add(new Token(text.substring(start, i), value.toString(), start, !quoted));
    }
    return out;
  }
}
