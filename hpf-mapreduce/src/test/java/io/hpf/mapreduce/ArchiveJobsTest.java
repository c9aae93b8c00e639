package io.hpf.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.MiniHdfs;
import io.hpf.mapreduce.jobs.SfJobs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The three SFMapReduce jobs over an archive on HDFS with Hadoop's local job runner, their output
 * written back into archives, against answers computed from the same texts directly.
 */
class ArchiveJobsTest {
  private static final String[] WORDS = {
    "alpha", "Beta", "gamma42", "délta", "error", "errand", "x", "日本", "zeta", "Omega"
  };

  private static MiniHdfs hdfs;
  private static TreeMap<String, byte[]> texts;
  private static Path input;

  /** The input archive, written once per JVM. */
  static Path input() {
    return input;
  }

  @BeforeAll
  static synchronized void writeTexts() throws Exception {
    if (input != null) {
      return;
    }
    hdfs = MiniHdfs.shared();
    texts = new TreeMap<>();
    SplittableRandom random = new SplittableRandom(9);
    for (int f = 0; f < 60; f++) {
      StringBuilder text = new StringBuilder();
      int lines = random.nextInt(1, 40);
      for (int l = 0; l < lines; l++) {
        int words = random.nextInt(0, 12);
        for (int w = 0; w < words; w++) {
          text.append(WORDS[random.nextInt(WORDS.length)])
              .append(random.nextBoolean() ? " " : ", ");
        }
        text.append(l == lines - 1 && random.nextBoolean() ? "" : "\n");
      }
      texts.put("books/" + f + ".txt", text.toString().getBytes(StandardCharsets.UTF_8));
    }
    input = hdfs.fs().makeQualified(hdfs.freshPath("texts.hpf"));
    HadoopStorage storage =
        HadoopStorage.createDirectories(hdfs.fs(), input, HadoopStorageOptions.DEFAULTS, false);
    try (ArchiveWriter w = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      for (var e : texts.entrySet()) {
        w.add(e.getKey(), e.getValue(), EntryMetadata.of(0));
      }
      w.commit();
    }
  }

  private static Configuration conf() throws Exception {
    Configuration conf = new Configuration(hdfs.fs().getConf());
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.client.completion.pollinterval", 50); // not 5 s per job
    conf.set("mapreduce.cluster.local.dir", "/tmp/hpf-mr-local");
    conf.setLong(ArchiveInputFormat.SPLIT_SIZE, 4096); // several map tasks
    return conf;
  }

  static TreeMap<String, String> run(SfJobs.Kind kind, String pattern, boolean reduce)
      throws Exception {
    Path out = hdfs.fs().makeQualified(hdfs.freshPath(kind + ".hpf"));
    Job job = SfJobs.build(kind, conf(), List.of(input), out, pattern, reduce);
    assertTrue(job.waitForCompletion(false), "job " + kind);
    return entries(out);
  }

  static TreeMap<String, String> entries(Path archive) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (HadoopStorage s =
            HadoopStorage.open(
                MiniHdfs.shared().fs(), archive, HadoopStorageOptions.DEFAULTS, false);
        ArchiveReader r = ArchiveReader.open(s)) {
      for (Iterator<EntryInfo> it = r.list(""); it.hasNext(); ) {
        String name = it.next().name();
        out.put(name, new String(r.get(name), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    for (String l : text.split("\n", -1)) {
      out.add(l);
    }
    if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
      out.remove(out.size() - 1);
    }
    return out;
  }

  /** The word counts of a map-only WordCount's entries, added up. */
  static TreeMap<String, Long> totals(TreeMap<String, String> entries) {
    TreeMap<String, Long> total = new TreeMap<>();
    for (String text : entries.values()) {
      for (String line : lines(text)) {
        String[] f = line.split("\t");
        total.merge(f[0], Long.parseLong(f[1]), Long::sum);
      }
    }
    return total;
  }

  static TreeMap<String, Long> modelCounts() {
    // Words: runs of ASCII letters and digits and non-ASCII bytes, seen through ISO-8859-1 so
    // that each byte is one char.
    Pattern word = Pattern.compile("[A-Za-z0-9\\x80-\\xff]+");
    TreeMap<String, Long> counts = new TreeMap<>();
    for (byte[] t : texts.values()) {
      Matcher m = word.matcher(new String(t, StandardCharsets.ISO_8859_1));
      while (m.find()) {
        String w =
            new String(m.group().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        counts.merge(w, 1L, Long::sum);
      }
    }
    return counts;
  }

  @Test
  void mapOnlyWordCountGivesEachTaskTheCountsOfItsSplit() throws Exception {
    TreeMap<String, String> out = run(SfJobs.Kind.WORDCOUNT, null, false);
    assertTrue(out.size() > 1, "one entry per map task: " + out.keySet());
    TreeMap<String, Long> total = new TreeMap<>();
    for (var e : out.entrySet()) {
      assertTrue(e.getKey().matches("part-m-\\d{5}"), e.getKey());
      List<byte[]> words = new ArrayList<>();
      for (String line : lines(e.getValue())) {
        String[] f = line.split("\t");
        words.add(f[0].getBytes(StandardCharsets.UTF_8));
        total.merge(f[0], Long.parseLong(f[1]), Long::sum);
      }
      for (int i = 1; i < words.size(); i++) {
        assertTrue(
            java.util.Arrays.compareUnsigned(words.get(i - 1), words.get(i)) < 0, "sorted, once");
      }
    }
    assertEquals(modelCounts(), total);
  }

  @Test
  void wordCountWithAReducePhaseGivesOneGlobalResult() throws Exception {
    TreeMap<String, String> out = run(SfJobs.Kind.WORDCOUNT, null, true);
    assertEquals(List.of("part-r-00000"), List.copyOf(out.keySet()));
    StringBuilder expected = new StringBuilder();
    List<Map.Entry<String, Long>> sorted = new ArrayList<>(modelCounts().entrySet());
    sorted.sort(
        (a, b) ->
            java.util.Arrays.compareUnsigned(
                a.getKey().getBytes(StandardCharsets.UTF_8),
                b.getKey().getBytes(StandardCharsets.UTF_8)));
    for (var e : sorted) {
      expected.append(e.getKey()).append('\t').append(e.getValue()).append('\n');
    }
    assertEquals(expected.toString(), out.get("part-r-00000"));
  }

  @Test
  void grepFindsEveryMatchingLineWithItsEntryName() throws Exception {
    TreeMap<String, String> out = run(SfJobs.Kind.GREP, "err.r|日", false);
    List<String> found = new ArrayList<>();
    out.values().forEach(v -> found.addAll(lines(v)));
    List<String> expected = new ArrayList<>();
    Pattern p = Pattern.compile("err.r|日");
    for (var e : texts.entrySet()) {
      for (String line : lines(new String(e.getValue(), StandardCharsets.UTF_8))) {
        if (p.matcher(line).find()) {
          expected.add(e.getKey() + ":" + line);
        }
      }
    }
    Collections.sort(found);
    Collections.sort(expected);
    assertFalse(expected.isEmpty());
    assertEquals(expected, found);
  }

  @Test
  void sortOrdersEachSplitsLinesAndWithReduceAllLines() throws Exception {
    List<String> all = new ArrayList<>();
    texts.values().forEach(t -> all.addAll(lines(new String(t, StandardCharsets.UTF_8))));
    all.sort(
        (a, b) ->
            java.util.Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    TreeMap<String, String> mapOnly = run(SfJobs.Kind.SORT, null, false);
    List<String> union = new ArrayList<>();
    for (String v : mapOnly.values()) {
      List<String> ls = lines(v);
      List<String> sorted = new ArrayList<>(ls);
      sorted.sort(
          (a, b) ->
              java.util.Arrays.compareUnsigned(
                  a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
      assertEquals(sorted, ls, "each entry sorted");
      union.addAll(ls);
    }
    union.sort(
        (a, b) ->
            java.util.Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    assertEquals(all, union);
    TreeMap<String, String> reduced = run(SfJobs.Kind.SORT, null, true);
    assertEquals(all, lines(reduced.get("part-r-00000")));
  }
}
