package io.hpf.archive.model;

/**
 * An archive file does not hold what the format says it must: a bad magic number, a checksum
 * mismatch, a length that does not add up. The message names the file and the offset.
 */
public class CorruptArchiveException extends ArchiveException {
  private static final long serialVersionUID = 1L;
  private final String file;
  private final long offset;
  private final String problem;

  public CorruptArchiveException(String file, long offset, String problem) {
    super(file + " at offset " + offset + ": " + problem);
    this.file = file;
    this.offset = offset;
    this.problem = problem;
  }

  public CorruptArchiveException(String file, long offset, String problem, Throwable cause) {
    this(file, offset, problem);
    initCause(cause);
  }

  /** The file, as {@link io.hpf.store.Storage#describe} names it. */
  public String file() {
    return file;
  }

  /** What is wrong, without the file and offset. */
  public String problem() {
    return problem;
  }

  /** The byte offset in that file where the problem was found. */
  public long offset() {
    return offset;
  }
}
