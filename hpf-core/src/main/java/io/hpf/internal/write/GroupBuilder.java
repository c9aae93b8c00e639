package io.hpf.internal.write;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.EntryGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The members of the group a part writer is filling (FORMAT.md "Group"): their encoded bytes, and
 * what their catalog rows need once the group is written. Not thread-safe; one per part writer.
 */
final class GroupBuilder {
  /** Name and attribute bytes a member may have, so that a group stays far under 1 MiB. */
  private static final int MAX_MEMBER_METADATA_BYTES = 128 << 10;

  /** What a member's row needs besides its group's place. */
  record Member(String name, int length, EntryMetadata meta) {
    /** The member's row: member {@code index} of the group written at {@code offset}. */
    EntryInfo row(
        Codec codec, int dictionaryId, int partId, long offset, long length, int index, int of) {
      return new EntryInfo(
          name,
          false,
          this.length,
          this.length,
          codec,
          dictionaryId,
          meta.mtimeMillis(),
          meta.mode(),
          meta.attributes(),
          partId,
          offset,
          length,
          index,
          of);
    }
  }

  private final ByteWriter raw = new ByteWriter(64 << 10);
  private final List<Member> members = new ArrayList<>();

  /** Whether an entry of this name and metadata is small enough to be a member. */
  static boolean fits(byte[] nameUtf8, EntryMetadata meta) {
    long bytes = nameUtf8.length;
    for (Map.Entry<String, String> a : meta.attributes().entrySet()) {
      bytes += 3L * (a.getKey().length() + a.getValue().length()); // UTF-8: at most 3 per char
    }
    return bytes <= MAX_MEMBER_METADATA_BYTES;
  }

  void add(String name, byte[] nameUtf8, byte[] content, int length, EntryMetadata meta) {
    EntryGroup.encodeMember(
        raw, nameUtf8, content, length, meta.mtimeMillis(), meta.mode(), meta.attributes());
    members.add(new Member(name, length, meta));
  }

  /** Raw bytes of the members so far. */
  int rawBytes() {
    return raw.size();
  }

  boolean isEmpty() {
    return members.isEmpty();
  }

  byte[] rawArray() {
    return raw.array();
  }

  List<Member> members() {
    return members;
  }

  void clear() {
    raw.reset();
    members.clear();
  }
}
