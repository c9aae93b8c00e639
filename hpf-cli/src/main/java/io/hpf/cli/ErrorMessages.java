package io.hpf.cli;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Turns any failure into the one line the user sees: what happened, naming the file, entry or
 * offset, in hpf's words. No Java class names: hpf's own exceptions carry full messages; the JDK's
 * file errors name only a path, so the reason is added here; anything else is a bug, said as such.
 */
final class ErrorMessages {
  private ErrorMessages() {}

  static String describe(Throwable e) {
    Throwable t = unwrap(e);
    if (t instanceof OutOfMemoryError) {
      return "out of memory; give hpf more with HPF_JAVA_OPTS=-Xmx4g";
    }
    if (t instanceof FileSystemException f) {
      return f.getFile() + (f.getReason() == null ? reason(f) : ": " + f.getReason());
    }
    String message = t.getMessage();
    if (t instanceof java.io.IOException
        || t instanceof IllegalArgumentException
        || t instanceof IllegalStateException) {
      return message == null || message.isBlank()
          ? "input/output error"
          : io.hpf.hadoop.ProgramMessages.inOurWords(message);
    }
    return "internal error"
        + (message == null ? "" : ": " + message)
        + " (a bug in hpf; HPF_DEBUG=1 shows where)";
  }

  /** The failure inside wrappers that only carried it across a thread or an iterator. */
  static Throwable unwrap(Throwable e) {
    Throwable t = e;
    while ((t instanceof UncheckedIOException
            || t instanceof ExecutionException
            || t instanceof CompletionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private static String reason(FileSystemException f) {
    if (f instanceof NoSuchFileException) {
      return ": no such file or directory";
    }
    if (f instanceof AccessDeniedException) {
      return ": permission denied";
    }
    if (f instanceof FileAlreadyExistsException) {
      return ": already exists";
    }
    if (f instanceof NotDirectoryException) {
      return ": not a directory";
    }
    if (f instanceof DirectoryNotEmptyException) {
      return ": directory not empty";
    }
    return ": file system error";
  }
}
