package io.hpf.archive;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.read.SegmentReader;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A summary of an archive for people and tools: sizes by kind of file, compression, index shape.
 * Computing it reads the catalogs and the bucket headers, not the content.
 *
 * @param manifest what the generation's manifest records
 * @param bucketCapacity the most records in one bucket of new segments
 * @param segments segments of the generation
 * @param dictionaries zstd dictionaries the archive keeps
 * @param files files of the archive (what a file system such as HDFS holds objects for)
 * @param contentBytes entry content, uncompressed
 * @param storedBytes entry content as stored (members of a group: their shares of the group's)
 * @param partBytes committed bytes of part files (headers and content)
 * @param indexBytes bytes of bucket files
 * @param catalogBytes bytes of catalog files
 * @param dictionaryBytes bytes of dictionary files
 * @param buckets bucket files over all segments
 * @param maxGlobalDepth the deepest segment directory
 * @param perfectHashBitsPerKey size of the perfect hashes in bits per indexed name
 * @param entriesByCodec how many entries each codec stores
 */
public record ArchiveInfo(
    Generation manifest,
    int bucketCapacity,
    int segments,
    int dictionaries,
    long files,
    long entries,
    long contentBytes,
    long storedBytes,
    long partBytes,
    long indexBytes,
    long catalogBytes,
    long dictionaryBytes,
    int buckets,
    int maxGlobalDepth,
    double perfectHashBitsPerKey,
    Map<Codec, Long> entriesByCodec) {

  public static ArchiveInfo of(ArchiveReader reader) throws IOException {
    return of(reader, e -> {});
  }

  /**
   * The summary, passing each live entry to {@code alsoEach} on the way: a caller that needs
   * another figure of every entry gets it from the same pass (one pass of 100M entries is minutes).
   */
  public static ArchiveInfo of(ArchiveReader reader, Consumer<EntryInfo> alsoEach)
      throws IOException {
    Manifest m = reader.committedManifest();
    long content = 0;
    long stored = 0;
    long entries = 0;
    Map<Codec, Long> byCodec = new EnumMap<>(Codec.class);
    for (Iterator<EntryInfo> it = reader.list(""); it.hasNext(); ) {
      EntryInfo e = it.next();
      entries++;
      content += e.rawLength();
      stored += e.storedShare();
      byCodec.merge(e.codec(), 1L, Long::sum);
      alsoEach.accept(e);
    }
    long indexBytes = 0;
    long catalogBytes = 0;
    long hashBits = 0;
    long indexedKeys = 0;
    int buckets = 0;
    int depth = 0;
    for (SegmentReader segment : reader.segmentsNewestFirst()) {
      catalogBytes += segment.ref().catalogLength();
      depth = Math.max(depth, segment.directory().globalDepth());
      for (int b = 0; b < segment.directory().bucketCount(); b++) {
        BucketDescriptor d = segment.directory().bucket(b);
        indexBytes += d.fileLength();
        buckets++;
        hashBits += 8 * segment.bucket(b).memoryBytes();
        indexedKeys += d.keyCount();
      }
    }
    long dictionaryBytes =
        m.dictionaries().stream().mapToLong(Manifest.DictionaryRef::length).sum();
    long files = 1L + io.hpf.internal.manifest.ArchiveFiles.expected(m).size(); // and the manifest
    return new ArchiveInfo(
        m,
        m.bucketCapacity(),
        m.segments().size(),
        m.dictionaries().size(),
        files,
        entries,
        content,
        stored,
        m.partBytes(),
        indexBytes,
        catalogBytes,
        dictionaryBytes,
        buckets,
        depth,
        indexedKeys == 0 ? 0 : (double) hashBits / indexedKeys,
        byCodec);
  }
}
