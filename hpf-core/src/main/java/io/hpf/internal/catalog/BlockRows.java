package io.hpf.internal.catalog;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.ByteReader;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rows of one decompressed, checked catalog block (FORMAT.md "Catalog"), read one at a time: a
 * row's name first, then its row if asked for. A row not asked for is still read through and
 * checked as one asked for would be, without making its name or attributes into objects — so a seek
 * into a block (a listing from a key) costs a few bytes compared per row before the key, and every
 * block is judged the same whichever way it is read.
 */
final class BlockRows {
  private final ByteReader in;
  private final int count;
  private int begun;
  private byte[] name = new byte[64];
  private int nameLength;
  private int flags;
  private boolean restUnread;

  BlockRows(String fileName, long blockOffset, byte[] raw, int count) {
    // Offsets in messages are of the block, since rows live in decompressed bytes.
    this(fileName + " (block at " + blockOffset + ")", raw, count);
  }

  /** Rows described in messages as {@code where}. */
  BlockRows(String where, byte[] raw, int count) {
    this.in = new ByteReader(where, 0, raw);
    this.count = count;
  }

  /** Moves to the next row, its name read; false after the last (nothing may follow it). */
  boolean next() throws CorruptArchiveException {
    if (restUnread) {
      readRest(null);
    }
    if (begun == count) {
      if (in.remaining() != 0) {
        throw in.corrupt(in.remaining() + " bytes left after the block's " + count + " rows");
      }
      return false;
    }
    int shared = in.varInt("shared prefix");
    int suffix = in.varInt("suffix length");
    if (shared > nameLength) {
      throw in.corrupt("shared prefix " + shared + " longer than the previous name");
    }
    int at = in.arrayPosition();
    in.skip(suffix, "name suffix"); // checked before the name grows to hold it
    if (shared + suffix > name.length) {
      name = Arrays.copyOf(name, Math.max(shared + suffix, 2 * name.length));
    }
    System.arraycopy(in.array(), at, name, shared, suffix);
    nameLength = shared + suffix;
    flags = in.u8("flags");
    if (flags != 0 && flags != CatalogWriter.FLAG_DELETED && flags != CatalogWriter.FLAG_IN_GROUP) {
      throw in.corrupt("row flags " + flags + " (0, 1 or 2)");
    }
    begun++;
    restUnread = flags != CatalogWriter.FLAG_DELETED;
    return true;
  }

  /** The current row's name against {@code key}, bytes compared unsigned. */
  int compareName(byte[] key) {
    return Arrays.compareUnsigned(name, 0, nameLength, key, 0, key.length);
  }

  boolean nameStartsWith(byte[] prefix) {
    return nameLength >= prefix.length
        && Arrays.equals(name, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** The current row: a tombstone, or its attributes and where its content lies. */
  EntryInfo row() throws CorruptArchiveException {
    String text = new ByteReader(in.file(), 0, name, 0, nameLength).text(nameLength, "name");
    if (flags == CatalogWriter.FLAG_DELETED) {
      return EntryInfo.tombstone(text);
    }
    if (!restUnread) {
      throw new IllegalStateException("the row was read already");
    }
    return readRest(text);
  }

  /**
   * The rest of a live row, after its name and flags, as the row named {@code text}; with no name,
   * read through and checked, nothing made (null).
   */
  private EntryInfo readRest(String text) throws CorruptArchiveException {
    boolean keep = text != null;
    restUnread = false;
    long rawLength = in.varLong("raw length");
    long storedLength = in.varLong("stored length");
    int codecId = in.u8("codec");
    Codec codec = Codec.byId(codecId);
    if (codec == null) {
      throw in.corrupt("unknown codec id " + codecId);
    }
    int dictionaryId = (int) in.varLong("dictionary id");
    long mtime = in.zigZag("mtime");
    int mode = (int) in.varLong("mode");
    int partId = (int) in.varLong("part id");
    long offset = in.varLong("offset");
    long entryLength = in.varLong("entry length");
    int member = 0;
    int members = 0;
    if (flags == CatalogWriter.FLAG_IN_GROUP) {
      member = in.varInt("member index");
      members = in.varInt("group members");
      if (member >= members) {
        throw in.corrupt("member " + member + " of a group of " + members);
      }
    }
    int attributeCount = in.varInt("attribute count");
    Map<String, String> attributes =
        attributeCount == 0 || !keep ? Collections.emptyMap() : new LinkedHashMap<>();
    for (int a = 0; a < attributeCount; a++) {
      int keyLength = in.varInt("key length");
      String key = keep ? in.text(keyLength, "attribute key") : skip(keyLength, "attribute key");
      int valueLength = in.varInt("value length");
      String value =
          keep ? in.text(valueLength, "attribute value") : skip(valueLength, "attribute value");
      if (keep) {
        attributes.put(key, value);
      }
    }
    if (!keep) {
      return null;
    }
    return new EntryInfo(
        text,
        false,
        rawLength,
        storedLength,
        codec,
        dictionaryId,
        mtime,
        mode,
        attributes,
        partId,
        offset,
        entryLength,
        member,
        members);
  }

  private String skip(int length, String what) throws CorruptArchiveException {
    in.skip(length, what);
    return null;
  }
}
