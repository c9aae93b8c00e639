package io.hpf.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A split's wire form. */
class HpfSplitTest {
  @Test
  void aSplitSerializesAndReadsBack() throws Exception {
    HpfSplit split =
        new HpfSplit(
            "hdfs://nn:1/a.hpf",
            7,
            new long[] {64, 100, 100, 1L << 40},
            new long[] {36, 300, 300, 1L << 33},
            new int[] {0, 0, 1, 0},
            999,
            new String[0]);
    var bytes = new java.io.ByteArrayOutputStream();
    split.write(new java.io.DataOutputStream(bytes));
    HpfSplit back = new HpfSplit();
    back.readFields(
        new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
    assertEquals("hdfs://nn:1/a.hpf", back.archive());
    assertEquals(7, back.partId());
    assertEquals(999, back.getLength());
    assertArrayEquals(split.offsets(), back.offsets());
    assertArrayEquals(new long[] {36, 300, 300, 1L << 33}, back.entryLengths());
    assertArrayEquals(new int[] {0, 0, 1, 0}, back.members());
  }
}
