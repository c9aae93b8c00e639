package io.hpf.server.s3;

/** A request refused as S3 refuses it: the code to send and a message in hpf's words. */
public final class S3Exception extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient S3Error error;

  public S3Exception(S3Error error, String message) {
    super(message);
    this.error = error;
  }

  public S3Error error() {
    return error;
  }
}
