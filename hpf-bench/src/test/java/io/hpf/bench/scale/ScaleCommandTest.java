package io.hpf.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.bench.BenchMain;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpf bench scale} on a small archive: its generated entries, and every figure it prints.
 */
class ScaleCommandTest {
  @TempDir Path temp;

  @Test
  void generatedNamesAreAThousandToADirectoryAndUnique() {
    Set<String> names = new HashSet<>();
    Set<String> directories = new HashSet<>();
    GeneratedEntries g = new GeneratedEntries(100);
    for (long i = 0; i < 5000; i++) {
      String name = GeneratedEntries.name(i);
      assertTrue(names.add(name), name);
      assertTrue(name.startsWith(GeneratedEntries.directory(i)), name);
      assertFalse(GeneratedEntries.missing(i).equals(name));
      directories.add(GeneratedEntries.directory(i));
      int length = g.length(i);
      assertTrue(length >= 50 && length <= 150, "length " + length);
      assertEquals('2', g.content(i)[0]);
    }
    assertEquals(5, directories.size());
    // the last directories the names can make are all different too
    long last = GeneratedEntries.MAX_ENTRIES - 1;
    assertFalse(GeneratedEntries.directory(last).equals(GeneratedEntries.directory(last - 1000)));
  }

  private static double figure(String json, String key) {
    Matcher m = Pattern.compile("\"" + key + "\":([0-9.]+)").matcher(json);
    assertTrue(m.find(), key + " in " + json);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aSmallRunPrintsEveryFigure() throws Exception {
    Path out = temp.resolve("scale.jsonl");
    int code =
        new picocli.CommandLine(new BenchMain())
            .execute(
                "scale",
                "--entries",
                "3000",
                "--size",
                "100",
                "--json",
                "--dir",
                temp.toString(),
                "--out",
                out.toString());
    assertEquals(0, code);
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertEquals(1, lines.size());
    String json = lines.get(0);
    assertEquals(3000, figure(json, "entries"));
    for (String key :
        List.of(
            "entries_per_s",
            "archive_bytes",
            "open_ms",
            "reader_bytes_per_entry",
            "get_p50_us",
            "get_p99_us",
            "miss_p50_us",
            "list_prefix_ms",
            "add_1k_s",
            "compact_s",
            "verify_s")) {
      assertTrue(figure(json, key) > 0, key + " in " + json);
    }
    assertTrue(figure(json, "get_p99_us") >= figure(json, "get_p50_us"), json);
    assertTrue(figure(json, "first_read_ms") >= figure(json, "open_ms"), json);
    assertTrue(figure(json, "archive_bytes") > 3000 * 50, "the content is there: " + json);
    assertFalse(Files.exists(temp.resolve("scale.hpf")), "deleted after");
  }
}
