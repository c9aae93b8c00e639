package io.hpf.archive;

import java.io.ByteArrayInputStream;

/**
 * An entry's content read whole and already checked against its CRC32C, as a stream: what {@link
 * ArchiveReader#openStream} gives for content it reads whole ({@link EntryInfo#readWhole}). A
 * caller that writes the content somewhere may take the bytes themselves ({@link #bytes}) instead
 * of copying them out of the stream.
 */
public final class CheckedContent extends ByteArrayInputStream {
  /** For the readers, which make it only of content they have checked. */
  public CheckedContent(byte[] content) {
    super(content);
  }

  /** The whole content, checked; the stream's own array, not a copy: callers must not change it. */
  public byte[] bytes() {
    return buf;
  }
}
