package io.hpf.internal.format;

import java.io.IOException;
import java.io.InputStream;

/** A stream whose reads are all bulk reads: a single byte is read as a read of one. Internal. */
abstract class BulkInputStream extends InputStream {
  @Override
  public abstract int read(byte[] buffer, int offset, int count) throws IOException;

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }
}
