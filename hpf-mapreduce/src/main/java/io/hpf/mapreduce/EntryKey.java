package io.hpf.mapreduce;

import io.hpf.archive.model.EntryInfo;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableUtils;

/**
 * The key of an archive's entry in a job: its name (what {@link #toString} gives), with its archive
 * and metadata reachable. Keys order by the name's UTF-8 bytes, the archive's own order.
 */
public final class EntryKey implements WritableComparable<EntryKey> {
  private String archive = "";
  private String name = "";
  private byte[] nameUtf8 = new byte[0];
  private long length;
  private long mtimeMillis;
  private int mode;
  private Map<String, String> attributes = Map.of();

  public EntryKey() {}

  /** Sets this key to an entry of {@code archive}. */
  public void set(String archive, EntryInfo entry) {
    this.archive = archive;
    this.name = entry.name();
    this.nameUtf8 = name.getBytes(StandardCharsets.UTF_8);
    this.length = entry.rawLength();
    this.mtimeMillis = entry.mtimeMillis();
    this.mode = entry.mode();
    this.attributes = entry.attributes();
  }

  /** The archive's location on its file system (as the job was given it). */
  public String archive() {
    return archive;
  }

  public String name() {
    return name;
  }

  /** Bytes of content (decompressed). */
  public long length() {
    return length;
  }

  public long mtimeMillis() {
    return mtimeMillis;
  }

  /** POSIX permission bits. */
  public int mode() {
    return mode;
  }

  /** User attributes, sorted by key. */
  public Map<String, String> attributes() {
    return attributes;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, archive);
    WritableUtils.writeVInt(out, nameUtf8.length);
    out.write(nameUtf8);
    WritableUtils.writeVLong(out, length);
    WritableUtils.writeVLong(out, mtimeMillis);
    WritableUtils.writeVInt(out, mode);
    WritableUtils.writeVInt(out, attributes.size());
    for (Map.Entry<String, String> a : attributes.entrySet()) {
      Text.writeString(out, a.getKey());
      Text.writeString(out, a.getValue());
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    archive = Text.readString(in);
    int n = WritableUtils.readVInt(in);
    if (n < 0 || n > 65535) {
      throw new IOException("an entry name of " + n + " bytes (at most 65535)");
    }
    nameUtf8 = new byte[n];
    in.readFully(nameUtf8);
    name = new String(nameUtf8, StandardCharsets.UTF_8);
    length = WritableUtils.readVLong(in);
    mtimeMillis = WritableUtils.readVLong(in);
    mode = WritableUtils.readVInt(in);
    int count = WritableUtils.readVInt(in);
    TreeMap<String, String> read = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      read.put(Text.readString(in), Text.readString(in));
    }
    attributes = read;
  }

  @Override
  public int compareTo(EntryKey other) {
    return Arrays.compareUnsigned(nameUtf8, other.nameUtf8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EntryKey k && Arrays.equals(nameUtf8, k.nameUtf8);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(nameUtf8);
  }

  @Override
  public String toString() {
    return name;
  }
}
