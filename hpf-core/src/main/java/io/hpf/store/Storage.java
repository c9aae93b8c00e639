package io.hpf.store;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;

/**
 * The few file operations an archive needs, over one directory (the archive) of some file system.
 * Everything the format reads and writes goes through this interface, so the core never imports
 * Hadoop: {@link LocalStorage} implements it with {@code java.nio}, and the Hadoop module
 * implements it over any Hadoop {@code FileSystem}.
 *
 * <p>File names are plain names inside the directory (no '/'). Implementations are thread-safe.
 */
public interface Storage extends Closeable {

  /**
   * Opens a file for positional reads.
   *
   * @param use what the file is read for, which decides how (mapped, paged, plain reads)
   * @throws FileNotFoundException if there is no such file
   */
  ReadableFile openRead(String name, FileUse use) throws IOException;

  /**
   * Creates a new file for appending, for the given use (HDFS gives part files and index files
   * their own block sizes). REQUIRES: no file of that name exists (it is an error, never an
   * overwrite, so that a committed file can never be clobbered).
   */
  AppendableFile create(String name, FileUse use) throws IOException;

  /**
   * Renames {@code from} to {@code to} atomically: a reader sees either no {@code to} or the
   * complete file. REQUIRES: {@code to} does not exist.
   */
  void rename(String from, String to) throws IOException;

  /**
   * Moves file {@code name} of {@code subdirectory} (a relative path below this directory, such as
   * a job's staging area) into this directory as {@code to}, atomically as {@link #rename}.
   * REQUIRES: {@code to} does not exist.
   */
  void moveIn(String subdirectory, String name, String to) throws IOException;

  /**
   * Whether each file costs beyond its bytes, so that writers should share one rather than write
   * one each: true on HDFS, where every file and every block is a NameNode object held in memory
   * for good; false on local disk (the default), where separate files let writers never wait.
   */
  default boolean prefersFewFiles() {
    return false;
  }

  /**
   * Whether a read is a round trip to another machine (HDFS: a DataNode; object stores: a request)
   * rather than a copy from the local page cache: there a read's bytes cost more than decoding
   * them, and a new archive is packed with zstd rather than LZ4 ({@code WriterOptions}). False on
   * local disk (the default).
   */
  default boolean readsAreRemote() {
    return false;
  }

  /** Lists the files of the directory with their lengths, in no particular order. */
  List<StoredFile> list() throws IOException;

  /** Whether a file of that name exists. */
  default boolean exists(String name) throws IOException {
    return list().stream().anyMatch(f -> f.name().equals(name));
  }

  /**
   * A value equal for the same file and different once the file of that name is another (deleted
   * and made again, or replaced by a rename), or null if there is no such file: what a reader
   * compares to know that a file it opened earlier is still the one of that name.
   *
   * @throws UnsupportedOperationException where the storage cannot tell ({@link #sharingKey()} is
   *     null there)
   */
  default Object version(String name) throws IOException {
    throw new UnsupportedOperationException("file versions of " + this);
  }

  /**
   * Whether two versions of a name ({@link #version}) are of the same file, changed in place
   * (written to, cut short) rather than another file put in its place. Equal versions are; where a
   * version tells no more than that, unequal ones are not (the default).
   */
  default boolean sameFile(Object version, Object other) {
    return java.util.Objects.equals(version, other);
  }

  /**
   * Whether asking after one file ({@link #exists}, {@link #version}) costs much less than a
   * listing: true on local disk (a stat against a directory read), false where each is a round
   * trip, as a listing is (HDFS: one NameNode call either way).
   */
  default boolean statCheaperThanList() {
    return false;
  }

  /**
   * The name under which readers in this process share what they opened of this directory (open
   * files, loaded index pages), or null where they must not share: the default, and the answer of a
   * storage that wraps another to change what it does. Storages with equal keys read the same files
   * in the same way. A storage with a key answers {@link #version}.
   */
  default String sharingKey() {
    return null;
  }

  /** Deletes a file; deleting a missing file is not an error. */
  void delete(String name) throws IOException;

  /** A human-readable location of a file, for error messages ("/data/photos.hpf/part-1"). */
  String describe(String name);

  /**
   * A relative path of plain components ("a/b/c"), unchanged: what {@link #moveIn} takes.
   *
   * @throws IllegalArgumentException if it is absolute, empty or has an empty, "." or ".."
   *     component
   */
  static String checkRelative(String path) {
    for (String component : path.split("/", -1)) {
      if (component.isEmpty() || component.equals(".") || component.equals("..")) {
        throw new IllegalArgumentException("not a relative path of plain names: '" + path + "'");
      }
    }
    return path;
  }

  /**
   * What a file is opened for, so that storage picks how to read it without guessing from its name
   * (as parquet's {@code HadoopInputFile.fromStatus} is told what it needs instead of asking).
   */
  enum FileUse {
    /** Read once, whole or nearly (a lock, a part being recovered or verified). */
    ONCE,
    /**
     * Small and immutable, read again and again by lookups and by every reader that opens the
     * archive (manifests, segment files with their buckets, catalogs and dictionaries): worth
     * keeping pages.
     */
    INDEX,
    /** Large, read at random by entry (part files). */
    CONTENT
  }

  /**
   * A file of a storage directory, its length in bytes and, where the listing tells, its version
   * (as {@link Storage#version} gives it; null where the listing does not tell).
   */
  record StoredFile(String name, long lengthBytes, Object version) {
    public StoredFile(String name, long lengthBytes) {
      this(name, lengthBytes, null);
    }
  }
}
