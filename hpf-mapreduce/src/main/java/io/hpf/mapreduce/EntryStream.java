package io.hpf.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.InputStream;
import org.apache.hadoop.io.Writable;

/**
 * The content of the current entry as a stream ({@link HpfStreamInputFormat}'s value), in bounded
 * memory whatever its size; its CRC32C is checked when read to the end. Valid until the next
 * record. A mapper reads it; it is not meant to be written out.
 */
public final class EntryStream implements Writable {
  private InputStream content;

  void set(InputStream content) {
    this.content = content;
  }

  /** The current entry's content. */
  public InputStream stream() {
    return content;
  }

  @Override
  public void write(DataOutput out) {
    throw new UnsupportedOperationException("an entry's stream is read in the map, not written");
  }

  @Override
  public void readFields(DataInput in) {
    throw new UnsupportedOperationException("an entry's stream is read in the map, not written");
  }
}
