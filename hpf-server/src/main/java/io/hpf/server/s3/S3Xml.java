package io.hpf.server.s3;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Collection;

/**
 * The S3 API's XML bodies as S3 writes them (namespace, element names and order of the API
 * reference): errors, ListAllMyBucketsResult, ListBucketResult (versions 1 and 2) and
 * LocationConstraint.
 */
public final class S3Xml {
  private S3Xml() {}

  static final String HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  static final String NAMESPACE = " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"";

  /** {@code <Error>}; the bucket and key are given where S3 gives them (else null). */
  public static String error(
      S3Error error, String message, String resource, String requestId, String bucket, String key) {
    StringBuilder out = new StringBuilder(256).append(HEAD).append("<Error>");
    element(out, "Code", error.code());
    element(out, "Message", message);
    if (bucket != null) {
      element(out, "BucketName", bucket);
    }
    if (key != null) {
      element(out, "Key", key);
    }
    element(out, "Resource", resource);
    element(out, "RequestId", requestId);
    return out.append("</Error>\n").toString();
  }

  /** ListBuckets: every bucket with the time given as its creation. */
  public static String buckets(Collection<String> names, long createdMillis) {
    StringBuilder out = new StringBuilder(128 + 96 * names.size()).append(HEAD);
    out.append("<ListAllMyBucketsResult").append(NAMESPACE).append('>');
    out.append("<Owner><ID>hpf</ID><DisplayName>hpf</DisplayName></Owner><Buckets>");
    String created = time(createdMillis);
    for (String name : names) {
      out.append("<Bucket>");
      element(out, "Name", name);
      element(out, "CreationDate", created);
      out.append("</Bucket>");
    }
    return out.append("</Buckets></ListAllMyBucketsResult>\n").toString();
  }

  /** CopyObject's result: the new object's ETag and time. */
  public static String copyResult(String etag, long modifiedMillis) {
    StringBuilder out = new StringBuilder(192).append(HEAD);
    out.append("<CopyObjectResult").append(NAMESPACE).append('>');
    element(out, "LastModified", time(modifiedMillis));
    element(out, "ETag", etag);
    return out.append("</CopyObjectResult>\n").toString();
  }

  /** GetBucketLocation: the empty constraint, S3's answer for us-east-1. */
  public static String location() {
    return HEAD + "<LocationConstraint" + NAMESPACE + "/>\n";
  }

  /** An ISO 8601 time with milliseconds, as S3 writes LastModified. */
  public static String time(long epochMillis) {
    return DateTimeFormatter.ISO_INSTANT
        .format(Instant.ofEpochMilli(epochMillis - Math.floorMod(epochMillis, 1000L)))
        .replace("Z", ".000Z");
  }

  static void element(StringBuilder out, String name, String text) {
    out.append('<').append(name).append('>');
    escape(out, text);
    out.append("</").append(name).append('>');
  }

  static void element(StringBuilder out, String name, long value) {
    out.append('<').append(name).append('>').append(value).append("</").append(name).append('>');
  }

  /** XML text: markup characters and control characters as references. */
  static void escape(StringBuilder out, String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append("&#x").append(Integer.toHexString(c)).append(';');
          } else {
            out.append(c);
          }
        }
      }
    }
  }
}
