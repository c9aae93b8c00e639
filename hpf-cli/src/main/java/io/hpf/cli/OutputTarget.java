package io.hpf.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An output whose write errors name it ({@code standard output: No space left on device}) and are
 * remembered: text goes out through {@link java.io.PrintWriter}s, which swallow errors, so the
 * command's end asks {@link #failure()} whether everything it printed was written. Output that
 * cannot be written is an error, never a silent success.
 */
final class OutputTarget extends FilterOutputStream {
  private final String name;
  private IOException failure;

  OutputTarget(OutputStream out, String name) {
    super(out);
    this.name = name;
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** The first write error, naming this output; null while every write succeeded. */
  IOException failure() {
    return failure;
  }

  /** Whether the reader of a pipe went away ({@code hpf ls | head}): no error to report. */
  static boolean isBrokenPipe(IOException e) {
    String message = e.getMessage();
    return message != null && message.endsWith("Broken pipe");
  }

  private IOException failed(IOException e) {
    if (failure == null) {
      failure = new IOException(name + ": " + reason(e), e);
    }
    return failure;
  }

  /** What the system said ({@code No space left on device}). */
  static String reason(IOException e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? "write failed" : message;
  }
}
