package io.hpf.mapreduce.jobs;

/** Splits content into lines at '\n' (a last line without one counts; no empty trailing line). */
final class Lines {
  private Lines() {}

  interface Visitor {
    void line(byte[] bytes, int start, int end) throws java.io.IOException, InterruptedException;
  }

  static void each(byte[] bytes, int length, Visitor visitor)
      throws java.io.IOException, InterruptedException {
    int start = 0;
    for (int i = 0; i < length; i++) {
      if (bytes[i] == '\n') {
        visitor.line(bytes, start, i);
        start = i + 1;
      }
    }
    if (start < length) {
      visitor.line(bytes, start, length);
    }
  }
}
