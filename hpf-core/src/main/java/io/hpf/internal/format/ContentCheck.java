package io.hpf.internal.format;

import io.hpf.archive.model.CorruptArchiveException;
import java.io.IOException;

/**
 * How every reader of entry content decodes it and checks it against its CRC32C, and says so when
 * it does not hold: the one place the words of a content error are made ({@link EntryReader},
 * {@link EntryContentStream}, {@link ChunkedContent}).
 */
final class ContentCheck {
  private ContentCheck() {}

  /**
   * Decompresses and checks the content of a whole entry held in {@code bytes} from index 0.
   *
   * @param dictionary the entry's zstd dictionary, or null for none
   */
  static byte[] decode(
      String path, long offset, EntryHeader header, byte[] bytes, Dictionary dictionary)
      throws IOException {
    if (header.chunked()) {
      return ChunkedContent.inMemory(path, offset, header, bytes, dictionary).whole();
    }
    int contentAt = header.headerLength();
    int stored = (int) header.storedLength();
    byte[] content;
    try {
      content =
          ContentDecompressor.decompress(
              header.codec(), bytes, contentAt, stored, (int) header.rawLength(), dictionary);
    } catch (IllegalArgumentException e) {
      throw undecodable(path, offset + contentAt, header, e);
    }
    checkCrc(
        path,
        offset + contentAt,
        label(header),
        EntryCodec.crc32c(content, 0, content.length),
        ByteReader.getU32(bytes, contentAt + stored));
    return content;
  }

  /** Content at {@code contentAt} that its codec refuses, in the reader's words. */
  static CorruptArchiveException undecodable(
      String path, long contentAt, EntryHeader header, IllegalArgumentException e) {
    return new CorruptArchiveException(
        path, contentAt, label(header) + ": content does not decompress: " + e.getMessage(), e);
  }

  /** How messages name an entry: by its name, or as a group. */
  static String label(EntryHeader header) {
    return header.group() ? "group" : "entry '" + header.name() + "'";
  }

  static void checkCrc(String path, long offset, String label, int actual, int expected)
      throws CorruptArchiveException {
    FileFraming.checkCrc(path, offset, label + ": content", actual, expected);
  }
}
