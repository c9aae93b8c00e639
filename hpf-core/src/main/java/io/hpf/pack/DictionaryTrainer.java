package io.hpf.pack;

import com.github.luben.zstd.Zstd;
import io.hpf.pack.SourceTree.SourceFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Trains a zstd dictionary on a sample of the files being packed, so that small files compress
 * nearly as well as they would in one block while each stays separately readable. Sampling is
 * spread evenly over the (sorted) list so every part of the tree is represented.
 */
public final class DictionaryTrainer {
  static final int DICTIONARY_BYTES = 64 * 1024;

  /**
   * Bytes of samples. zstd's manual suggests about 100 times the dictionary size; measured on the
   * kernel tree and on generated logs (docs/BENCHMARKS.md, "Codecs, groups and packing for size"),
   * 2 MiB spread over the whole tree gives the same compressed size as 4 and 8 MiB (within 0.03
   * points of the content) and trains in 0.24 s against 0.47 and 0.8 s, and training delays the
   * first compressed file.
   */
  static final int SAMPLE_BUDGET_BYTES = 2 << 20;

  static final int MAX_SAMPLE_BYTES = 64 * 1024;
  static final int MIN_FILES = 256;

  private DictionaryTrainer() {}

  /** A dictionary, or null when there is too little to train on or training fails. */
  public static byte[] train(List<? extends SourceFile> files) {
    return train(files, SAMPLE_BUDGET_BYTES, DICTIONARY_BYTES);
  }

  /**
   * Like {@link #train(List)} with another sample budget and dictionary size (the benchmark that
   * chose the defaults sweeps them).
   */
  public static byte[] train(
      List<? extends SourceFile> files, int sampleBytes, int dictionaryBytes) {
    if (files.size() < MIN_FILES) {
      return null;
    }
    List<byte[]> samples = new ArrayList<>();
    long budget = sampleBytes;
    // Every step-th file, the step chosen from the listed sizes so that the budget lasts to the
    // end of the list: a step by file count alone spent the budget in the first third of a tree.
    long sampleable = 0;
    for (SourceFile f : files) {
      sampleable += Math.min(f.size(), MAX_SAMPLE_BYTES);
    }
    int step = (int) Math.max(1, Math.min(files.size(), (sampleable + budget - 1) / budget));
    for (int i = 0; i < files.size() && budget > 0; i += step) {
      try {
        byte[] bytes;
        try (java.io.InputStream in = files.get(i).open()) {
          bytes = in.readNBytes(16 * MAX_SAMPLE_BYTES + 1);
        }
        if (bytes.length == 0 || bytes.length > 16 * MAX_SAMPLE_BYTES) {
          continue;
        }
        byte[] sample =
            bytes.length > MAX_SAMPLE_BYTES ? Arrays.copyOf(bytes, MAX_SAMPLE_BYTES) : bytes;
        samples.add(sample);
        budget -= sample.length;
      } catch (IOException e) {
        // An unreadable file is reported by the packer itself; it just is not a sample.
      }
    }
    if (samples.size() < MIN_FILES / 4) {
      return null;
    }
    byte[] dictionary = new byte[dictionaryBytes];
    long size = Zstd.trainFromBuffer(samples.toArray(new byte[0][]), dictionary);
    if (Zstd.isError(size) || size < 256) {
      return null;
    }
    return Arrays.copyOf(dictionary, (int) size);
  }
}
