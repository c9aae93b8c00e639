package io.hpf.internal.format;

import java.io.ByteArrayInputStream;

/**
 * An entry's content read whole and already checked against its CRC32C, as a stream: what {@link
 * EntryReader#openContent} gives for small entries. A caller that writes the content somewhere may
 * take the bytes themselves ({@link #bytes}) instead of copying them out of the stream.
 */
public final class CheckedContent extends ByteArrayInputStream {
  CheckedContent(byte[] content) {
    super(content);
  }

  /** The whole content, checked; the stream's own array, not a copy: callers must not change it. */
  public byte[] bytes() {
    return buf;
  }
}
