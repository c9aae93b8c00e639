package io.hpf.internal.manifest;

import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.io.FileSlice;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;

/**
 * Where a catalog, a bucket or a dictionary is: a file of its own (versions 1 to 3) or a range of
 * its segment file (version 4, FORMAT.md "Segment file"). Either way its bytes are the same, so one
 * reader of each kind reads both through {@link #open} or {@link #slice}.
 *
 * @param fileName the file holding it
 * @param offset where it starts in that file (0 for a file of its own)
 * @param length its bytes
 * @param label what it is, for messages ("bucket 3"), or null for a file of its own
 */
public record Section(String fileName, long offset, long length, String label) {

  public static Section catalog(Manifest.SegmentRef s) {
    return s.inSegmentFile()
        ? new Section(
            FileNames.segmentFileName(s.segmentId()),
            FormatConstants.FILE_HEADER_BYTES,
            s.catalogLength(),
            "catalog")
        : new Section(FileNames.catalogFileName(s.segmentId()), 0, s.catalogLength(), null);
  }

  public static Section bucket(Manifest.SegmentRef s, BucketDescriptor b) {
    return s.inSegmentFile()
        ? new Section(
            FileNames.segmentFileName(s.segmentId()),
            b.offset(),
            b.fileLength(),
            "bucket " + b.bucketNo())
        : new Section(
            FileNames.bucketFileName(s.segmentId(), b.bucketNo()), 0, b.fileLength(), null);
  }

  public static Section dictionary(Manifest.DictionaryRef d) {
    return d.inSegmentFile()
        ? new Section(
            FileNames.segmentFileName(d.segmentId()),
            d.offset(),
            d.length(),
            "dictionary " + d.dictionaryId())
        : new Section(FileNames.dictionaryFileName(d.dictionaryId()), 0, d.length(), null);
  }

  /**
   * Names it in messages, whose offsets are from its start: the file, and for a section of a
   * segment file which section and where it starts ("…/seg-00000002.hpfs (bucket 3 from byte
   * 4096)").
   */
  public String describe(Storage storage) {
    String file = storage.describe(fileName);
    return label == null ? file : file + " (" + label + " from byte " + offset + ")";
  }

  /** Opens it alone: the slice owns the file it opens. */
  public ReadableFile open(Storage storage, FileUse use) throws IOException {
    return slice(storage.openRead(fileName, use), true);
  }

  /** Its range of {@code file}, which is open already (a segment file shared by its sections). */
  public ReadableFile slice(ReadableFile file, boolean owner) {
    return new FileSlice(file, offset, length, owner);
  }
}
