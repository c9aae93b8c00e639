package io.hpf.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SelectorParserTest {
  private static final long JAN_15 = 1705276800000L; // 2024-01-15T00:00:00Z

  private static EntryInfo e(String name, long size, long mtime, Map<String, String> attrs) {
    return new EntryInfo(
        name, false, size, size, Codec.NONE, 0, mtime, 0644, attrs, 1, 64, 100, 0, 0);
  }

  private static final List<EntryInfo> ENTRIES =
      List.of(
          e("books/a.txt", 100, JAN_15, Map.of("lang", "en")),
          e("books/deep/b.txt", 5000, JAN_15 + 86_400_000L, Map.of("lang", "fr")),
          e("logs/2024/c.log", 2 << 20, JAN_15 - 86_400_000L, Map.of()),
          e("it's.txt", 0, 0, Map.of("draft", "")));

  private static List<String> select(String expression) {
    Selector s = Selector.parse(expression);
    return ENTRIES.stream().filter(s::select).map(EntryInfo::name).collect(Collectors.toList());
  }

  @Test
  void eachTermSelectsOnItsField() {
    assertEquals(List.of("books/a.txt"), select("name:books/*"));
    assertEquals(List.of("books/a.txt", "books/deep/b.txt"), select("name:books/**"));
    assertEquals(List.of("books/a.txt", "books/deep/b.txt"), select("prefix:books/"));
    assertEquals(List.of("logs/2024/c.log"), select("regex:.*/\\d{4}/.*"));
    assertEquals(
        List.of("books/a.txt", "logs/2024/c.log"),
        select("(regex:(books|logs)/[^/]*\\.(txt|log) or name:logs/**)"));
    assertEquals(List.of("books/deep/b.txt", "logs/2024/c.log"), select("size:1k.."));
    assertEquals(List.of("books/a.txt", "it's.txt"), select("size:..1k"));
    assertEquals(List.of("books/a.txt"), select("size:100"));
    assertEquals(List.of("books/a.txt"), select("mtime:2024-01-15..2024-01-16"));
    assertEquals(List.of("books/deep/b.txt"), select("mtime:2024-01-16T00:00:00Z.."));
    assertEquals(List.of("books/deep/b.txt"), select("attr:lang=fr"));
    assertEquals(List.of("it's.txt"), select("attr:draft"));
    assertEquals(List.of("it's.txt"), select("name:'it''s.txt'"));
    assertEquals(List.of("books/a.txt", "logs/2024/c.log"), select("name:{books/a.txt,logs/**}"));
  }

  @Test
  void termsCombine() {
    assertEquals(List.of("books/a.txt"), select("prefix:books/ size:..1k"));
    assertEquals(List.of("books/a.txt"), select("prefix:books/ and attr:lang=en"));
    assertEquals(List.of("books/a.txt", "logs/2024/c.log"), select("attr:lang=en or prefix:logs/"));
    assertEquals(List.of("books/deep/b.txt"), select("prefix:books/ not attr:lang=en"));
    assertEquals(
        List.of("books/deep/b.txt", "it's.txt"), select("not (attr:lang=en or prefix:logs/)"));
    assertEquals(4, select("").size(), "empty: everything");
  }

  @Test
  void errorsPointAtTheBadToken() {
    assertPointsAt("name:a* sise:3", 8, "unknown field 'sise'");
    assertPointsAt("size:3q", 0, "not a size");
    assertPointsAt("regex:(", 0, "bad regular expression");
    assertPointsAt("regex:a)", 7, "unexpected ')'");
    assertPointsAt("mtime:2024-13-01..", 0, "not a time");
    assertPointsAt("(name:a", 7, "')' expected");
    assertPointsAt("name:a )", 7, "unexpected ')'");
    assertPointsAt("name:a or", 9, "missing");
    assertPointsAt("books", 0, "not a term");
    assertPointsAt("name:'open", 5, "unclosed quote");
    assertPointsAt("name:[ab", 0, "unclosed '['");
  }

  private static void assertPointsAt(String expression, int position, String problem) {
    SelectorSyntaxException e =
        assertThrows(SelectorSyntaxException.class, () -> Selector.parse(expression));
    assertEquals(position, e.position(), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
    assertTrue(e.getMessage().contains(expression), e.getMessage());
  }
}
