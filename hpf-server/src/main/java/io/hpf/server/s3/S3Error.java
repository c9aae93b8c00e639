package io.hpf.server.s3;

/**
 * The S3 error codes this server answers with, each with the HTTP status S3 gives it (the S3 API
 * reference's "Error responses"). Codes are sent as S3 spells them; messages are hpf's own.
 */
public enum S3Error {
  ACCESS_DENIED("AccessDenied", 403),
  BAD_DIGEST("BadDigest", 400),
  BUCKET_ALREADY_OWNED_BY_YOU("BucketAlreadyOwnedByYou", 409),
  BUCKET_NOT_EMPTY("BucketNotEmpty", 409),
  AUTHORIZATION_HEADER_MALFORMED("AuthorizationHeaderMalformed", 400),
  AUTHORIZATION_QUERY_PARAMETERS_ERROR("AuthorizationQueryParametersError", 400),
  CONTENT_SHA256_MISMATCH("XAmzContentSHA256Mismatch", 400),
  ENTITY_TOO_LARGE("EntityTooLarge", 400),
  INCOMPLETE_BODY("IncompleteBody", 400),
  INSUFFICIENT_STORAGE("InsufficientStorage", 507),
  INTERNAL_ERROR("InternalError", 500),
  INVALID_ACCESS_KEY_ID("InvalidAccessKeyId", 403),
  INVALID_ARGUMENT("InvalidArgument", 400),
  INVALID_BUCKET_NAME("InvalidBucketName", 400),
  INVALID_DIGEST("InvalidDigest", 400),
  INVALID_PART("InvalidPart", 400),
  INVALID_PART_ORDER("InvalidPartOrder", 400),
  INVALID_RANGE("InvalidRange", 416),
  INVALID_REQUEST("InvalidRequest", 400),
  MALFORMED_XML("MalformedXML", 400),
  METADATA_TOO_LARGE("MetadataTooLarge", 400),
  METHOD_NOT_ALLOWED("MethodNotAllowed", 405),
  NO_SUCH_BUCKET("NoSuchBucket", 404),
  NO_SUCH_KEY("NoSuchKey", 404),
  NO_SUCH_UPLOAD("NoSuchUpload", 404),
  NOT_IMPLEMENTED("NotImplemented", 501),
  PRECONDITION_FAILED("PreconditionFailed", 412),
  REQUEST_HEADER_SECTION_TOO_LARGE("RequestHeaderSectionTooLarge", 431),
  REQUEST_URI_TOO_LONG("RequestURITooLong", 414),
  REQUEST_TIME_TOO_SKEWED("RequestTimeTooSkewed", 403),
  SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", 403),
  SLOW_DOWN("SlowDown", 503);

  private final String code;
  private final int status;

  S3Error(String code, int status) {
    this.code = code;
    this.status = status;
  }

  public String code() {
    return code;
  }

  public int status() {
    return status;
  }

  /**
   * The code for an error the rest of the server answers by status alone; {@code missing} is the
   * code a 404 means where it is answered (no such key, or no such bucket).
   */
  public static S3Error forStatus(int status, S3Error missing) {
    return switch (status) {
      case 403 -> ACCESS_DENIED;
      case 404 -> missing;
      case 405 -> METHOD_NOT_ALLOWED;
      case 412 -> PRECONDITION_FAILED;
      case 414 -> REQUEST_URI_TOO_LONG;
      case 416 -> INVALID_RANGE;
      case 431 -> REQUEST_HEADER_SECTION_TOO_LARGE;
      case 501 -> NOT_IMPLEMENTED;
      case 503 -> SLOW_DOWN;
      default -> status >= 500 ? INTERNAL_ERROR : INVALID_ARGUMENT;
    };
  }
}
