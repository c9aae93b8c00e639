package io.hpf.bench;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import io.hpf.pack.DictionaryTrainer;
import io.hpf.pack.SourceTree.SourceFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The packer's zstd choices measured on real trees: sample budget, dictionary size and level. For
 * each setting, the dictionary is trained as {@code hpf create} trains it (3 times, median time)
 * and every file is compressed as its own frame as the writer does (one thread), giving the
 * content's stored bytes and compression time. Headers and index are the same for every setting and
 * left out.
 *
 * <p>Usage: {@code DictionaryBenchmark OUT.jsonl SETTINGS DIR...}, SETTINGS a ';'-separated list of
 * {@code sampleMiB,dictionaryKiB,level[,dictionaryMaxKiB]} (dictionary 0: none; files over
 * dictionaryMaxKiB, if given, are compressed without the dictionary: at level 3 zstd copies a
 * digested dictionary's tables for inputs over 16 KB and then takes its slower external-dictionary
 * path).
 */
public final class DictionaryBenchmark {
  private DictionaryBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchArgs flags = BenchArgs.parse("DictionaryBenchmark", args, "out", "settings", "tree");
    BenchOutput out = new BenchOutput(flags.path("out"), flags.commandLine());
    for (String tree : flags.all("tree")) {
      List<SourceFile> files = LocalTrees.files(Path.of(tree));
      List<byte[]> contents = new ArrayList<>();
      long raw = 0;
      for (SourceFile f : files) {
        try (InputStream in = f.open()) {
          contents.add(in.readAllBytes());
        }
        raw += contents.get(contents.size() - 1).length;
      }
      for (String setting : flags.string("settings").split(";")) {
        String[] p = setting.split(",");
        int sampleBytes = Integer.parseInt(p[0]) << 20;
        int dictionaryBytes = Integer.parseInt(p[1]) << 10;
        int level = Integer.parseInt(p[2]);
        long dictionaryMax = p.length > 3 ? Long.parseLong(p[3]) << 10 : Long.MAX_VALUE;
        double[] trainSeconds = new double[3];
        byte[] dictionary = null;
        for (int r = 0; r < trainSeconds.length && dictionaryBytes > 0; r++) {
          long t0 = System.nanoTime();
          dictionary = DictionaryTrainer.train(files, sampleBytes, dictionaryBytes);
          trainSeconds[r] = (System.nanoTime() - t0) / 1e9;
        }
        long t0 = System.nanoTime();
        long stored = storedBytes(contents, dictionary, level, dictionaryMax);
        double compressSeconds = (System.nanoTime() - t0) / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", "dictionary");
        m.put("tree", Path.of(tree).getFileName().toString());
        m.put("files", files.size());
        m.put("rawBytes", raw);
        m.put("sampleMiB", sampleBytes >> 20);
        m.put("dictionaryKiB", dictionary == null ? 0 : dictionary.length >> 10);
        m.put("level", level);
        m.put("dictionaryMaxKiB", p.length > 3 ? Long.parseLong(p[3]) : -1);
        m.put("trainSecondsMedian", dictionaryBytes > 0 ? Stats.median(trainSeconds) : 0.0);
        m.put("compressSeconds", compressSeconds);
        m.put("storedBytes", stored);
        m.put("storedPercent", 100.0 * stored / raw);
        out.write(m);
      }
    }
  }

  /**
   * The content bytes an archive stores: each file its own frame, raw when that is smaller; files
   * over {@code dictionaryMax} bytes without the dictionary.
   */
  private static long storedBytes(
      List<byte[]> contents, byte[] dictionary, int level, long dictionaryMax) throws IOException {
    try (ZstdCompressCtx ctx = new ZstdCompressCtx();
        ZstdCompressCtx plain = new ZstdCompressCtx()) {
      ctx.setLevel(level);
      ctx.setChecksum(false);
      plain.setLevel(level);
      plain.setChecksum(false);
      ZstdDictCompress prepared = null;
      if (dictionary != null) {
        prepared = new ZstdDictCompress(dictionary, level);
        ctx.loadDict(prepared);
      }
      long stored = 0;
      byte[] out = new byte[0];
      for (byte[] b : contents) {
        int bound = (int) Zstd.compressBound(b.length);
        if (out.length < bound) {
          out = new byte[bound];
        }
        ZstdCompressCtx c = b.length > dictionaryMax ? plain : ctx;
        stored += Math.min(b.length, c.compressByteArray(out, 0, out.length, b, 0, b.length));
      }
      if (prepared != null) {
        prepared.close();
      }
      return stored;
    }
  }
}
