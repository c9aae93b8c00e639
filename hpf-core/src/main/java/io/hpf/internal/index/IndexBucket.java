package io.hpf.internal.index;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FormatConstants;
import io.hpf.store.ReadableFile;
import java.io.IOException;

/**
 * An open bucket file: its perfect hash in memory, its records read one at a time by position.
 * Loading it is one read (header, seed and perfect hash); a lookup after that is one read of 32
 * bytes. Thread-safe (immutable, positional reads).
 */
public final class IndexBucket {
  private final String fileName;
  private final ReadableFile file;
  private final BucketDescriptor descriptor;
  private final long seed;
  private final PerfectHash hash;
  private final SlotHash slotHash;
  private final byte[] slotFingerprints;
  private final int hashBytes;

  private IndexBucket(
      String fileName,
      ReadableFile file,
      BucketDescriptor descriptor,
      long seed,
      PerfectHash hash,
      byte[] slotFingerprints,
      SlotHash slotHash) {
    this.fileName = fileName;
    this.file = file;
    this.descriptor = descriptor;
    this.seed = seed;
    this.hash = hash;
    this.slotHash = slotHash;
    this.slotFingerprints = slotFingerprints;
    this.hashBytes = hash.serializedBytes();
  }

  /**
   * Reads and checks the bucket's header and perfect hash.
   *
   * @param fileName the file's name for messages
   */
  public static IndexBucket load(String fileName, ReadableFile file, BucketDescriptor descriptor)
      throws IOException {
    return load(fileName, file, descriptor, SlotHash.XXH64);
  }

  static IndexBucket load(
      String fileName, ReadableFile file, BucketDescriptor descriptor, SlotHash slotHash)
      throws IOException {
    int metaLength = descriptor.metaLength();
    checkLengths(fileName, file, descriptor);
    byte[] meta = file.readFully(0, metaLength);
    FileFraming.checkHeader(fileName, meta, 0, meta.length, FormatConstants.KIND_BUCKET);
    int start = FormatConstants.FILE_HEADER_BYTES;
    int storedCrc = ByteReader.getU32(meta, metaLength - 4);
    int actualCrc = EntryCodec.crc32c(meta, start, metaLength - 4 - start);
    FileFraming.checkCrc(fileName, metaLength - 4, "bucket meta", actualCrc, storedCrc);
    ByteReader in = new ByteReader(fileName, start, meta, start, metaLength - 4 - start);
    int keyCount = in.count("key count");
    int recordBytes = in.count("record size");
    long seed = in.u64("seed");
    int hashLength = in.count("perfect hash length");
    if (keyCount != descriptor.keyCount() || recordBytes != FormatConstants.RECORD_BYTES) {
      throw new CorruptArchiveException(
          fileName,
          start,
          "bucket has "
              + keyCount
              + " records of "
              + recordBytes
              + " bytes, manifest expects "
              + descriptor.keyCount()
              + " of "
              + FormatConstants.RECORD_BYTES);
    }
    if (hashLength != in.remaining() - keyCount) {
      throw in.corrupt(
          "perfect hash length "
              + hashLength
              + " and "
              + keyCount
              + " slot fingerprints, but "
              + in.remaining()
              + " bytes left");
    }
    PerfectHash hash = PerfectHash.readFrom(in);
    if (hash.numKeys() != keyCount) {
      throw in.corrupt("perfect hash covers " + hash.numKeys() + " keys, bucket has " + keyCount);
    }
    byte[] slotFingerprints = in.bytes(keyCount, "slot fingerprints");
    return new IndexBucket(fileName, file, descriptor, seed, hash, slotFingerprints, slotHash);
  }

  /** The bucket file's length: as the manifest gives it, as its records need, as it is. */
  private static void checkLengths(String fileName, ReadableFile file, BucketDescriptor descriptor)
      throws IOException {
    int metaLength = descriptor.metaLength();
    long expectedLength =
        (long) metaLength
            + (long) descriptor.keyCount() * FormatConstants.RECORD_BYTES
            + FormatConstants.FOOTER_BYTES;
    if (expectedLength != descriptor.fileLength()) {
      throw new CorruptArchiveException(
          fileName,
          0,
          "manifest gives length "
              + descriptor.fileLength()
              + " but "
              + descriptor.keyCount()
              + " records need "
              + expectedLength);
    }
    long actualLength = file.length();
    if (actualLength != expectedLength) {
      throw new CorruptArchiveException(
          fileName,
          Math.min(actualLength, expectedLength),
          "file is " + actualLength + " bytes, expected " + expectedLength);
    }
    if (metaLength < FormatConstants.FILE_HEADER_BYTES + 24) {
      throw new CorruptArchiveException(fileName, 0, "meta length " + metaLength + " too small");
    }
  }

  public BucketDescriptor descriptor() {
    return descriptor;
  }

  public int keyCount() {
    return descriptor.keyCount();
  }

  /** The slot a name maps to (for a name not in the bucket, some slot). */
  public int slotOf(byte[] nameUtf8) {
    return hash.slot(slotHash.hash(nameUtf8, seed));
  }

  /** Reads and checks the record in a slot. */
  public IndexRecord recordAt(int slot) throws IOException {
    long position = descriptor.metaLength() + (long) slot * FormatConstants.RECORD_BYTES;
    byte[] bytes = file.readFully(position, FormatConstants.RECORD_BYTES);
    return IndexRecord.read(fileName, position, bytes, 0);
  }

  /** The byte of a name hash kept per slot in memory (FORMAT.md "Bucket file"). */
  static int slotFingerprint(long nameHash) {
    return (int) (nameHash & 0xFF);
  }

  /**
   * The record for a name, or null if the slot's fingerprint says the name is not here (then
   * usually without any read: the in-memory byte fingerprint already differs). A returned record
   * may still belong to another name with the same 64-bit hash; the caller checks the name in the
   * entry header.
   */
  public IndexRecord find(byte[] nameUtf8, long nameHash) throws IOException {
    if (descriptor.keyCount() == 0) {
      return null;
    }
    int slot = slotOf(nameUtf8);
    if ((slotFingerprints[slot] & 0xFF) != slotFingerprint(nameHash)) {
      return null;
    }
    IndexRecord record = recordAt(slot);
    return record.fingerprint() == nameHash ? record : null;
  }

  /** Bytes of memory this bucket keeps (perfect hash and slot fingerprints). */
  public long memoryBytes() {
    return (long) hashBytes + slotFingerprints.length;
  }

  /**
   * Whether a slot's in-memory fingerprint agrees with its record; verify uses it to find a damaged
   * fingerprint byte, which would otherwise hide an entry as "not found".
   */
  public boolean slotFingerprintMatches(int slot, IndexRecord record) {
    return (slotFingerprints[slot] & 0xFF) == slotFingerprint(record.fingerprint());
  }

  public double bitsPerKey() {
    return hash.bitsPerKey();
  }

  /** Closes the underlying file; errors are ignored since nothing was written. */
  public void closeQuietly() {
    try {
      file.close();
    } catch (java.io.IOException e) {
      // Read-only file: nothing to lose.
    }
  }
}
