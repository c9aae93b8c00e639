package io.hpf.hadoop.roots;

import io.hpf.store.Storage;
import java.io.IOException;
import java.util.Map;

/**
 * Where the served archives live: a directory (local or on a Hadoop file system) searched for
 * directories named {@code *.hpf}, or one archive (a directory holding a manifest, whatever its
 * name: a directory named {@code *.hpf} that holds archives is searched). An archive's id is its
 * path below the root without the {@code .hpf} suffix ({@code /data/a/photos.hpf} under {@code
 * /data} is {@code a/photos}); a single archive's id is its name without the suffix.
 */
public interface ArchiveRoot {
  /** The archives there now: id to location. A walk of the tree (one listing per directory). */
  Map<String, String> scan() throws IOException;

  /** Opens an archive's storage. */
  Storage open(String location) throws IOException;

  /** Opens an archive's storage for a writer (which must not create a missing directory). */
  Storage openToWrite(String location) throws IOException;

  /**
   * Makes the directory of a new archive {@code id} ({@code ROOT/ID.hpf}) and opens it for a
   * writer; the archive is made by the writer's first commit.
   *
   * @throws java.nio.file.FileAlreadyExistsException the directory exists
   * @throws IOException the root is one archive, not a directory of them
   */
  Storage createArchive(String id) throws IOException;

  /**
   * Removes an archive's directory, which its files have left already.
   *
   * @throws java.nio.file.DirectoryNotEmptyException it holds files that are not the archive's
   */
  void removeEmptyArchive(String location) throws IOException;

  /** True if archives are on local disk: reads are page-cache reads, cheap enough inline. */
  boolean local();

  /** The root as the user gave it, for messages. */
  String describe();

  /** The suffix naming archive directories. */
  String SUFFIX = ".hpf";

  /** The id of an archive that is the root itself: its name, less the suffix if it has it. */
  static String idOfRoot(String name) {
    return name.endsWith(SUFFIX) && name.length() > SUFFIX.length() ? idOf(name) : name;
  }

  /** The id of an archive directory named {@code relative} below the root (with the suffix). */
  static String idOf(String relative) {
    return relative.substring(0, relative.length() - SUFFIX.length());
  }
}
