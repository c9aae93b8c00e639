package io.hpf.server.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

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

  /**
   * The root element of a request body, which must be {@code rootName}: read with a parser that
   * takes no DTD and no external entity.
   */
  static Element parse(byte[] xml, String rootName) throws S3Exception {
    Element root;
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setXIncludeAware(false);
      f.setExpandEntityReferences(false);
      DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(null);
      root = b.parse(new ByteArrayInputStream(xml)).getDocumentElement();
    } catch (ParserConfigurationException e) {
      throw new S3Exception(S3Error.INTERNAL_ERROR, "no XML parser: " + e.getMessage());
    } catch (SAXException | IOException e) {
      throw new S3Exception(S3Error.MALFORMED_XML, "the request body is not well-formed XML");
    }
    if (!rootName.equals(root.getLocalName())) {
      throw new S3Exception(
          S3Error.MALFORMED_XML, "the request's root element must be " + rootName);
    }
    return root;
  }

  /** The text of the first child element named {@code name}, or null. */
  static String child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && name.equals(e.getLocalName())) {
        return e.getTextContent();
      }
    }
    return null;
  }

  /** CreateMultipartUpload's result. */
  public static String initiated(String bucket, String key, String uploadId) {
    StringBuilder out = new StringBuilder(256).append(HEAD);
    out.append("<InitiateMultipartUploadResult").append(NAMESPACE).append('>');
    element(out, "Bucket", bucket);
    element(out, "Key", key);
    element(out, "UploadId", uploadId);
    return out.append("</InitiateMultipartUploadResult>\n").toString();
  }

  /** CompleteMultipartUpload's result. */
  public static String completed(String location, String bucket, String key, String etag) {
    StringBuilder out = new StringBuilder(256).append(HEAD);
    out.append("<CompleteMultipartUploadResult").append(NAMESPACE).append('>');
    element(out, "Location", location);
    element(out, "Bucket", bucket);
    element(out, "Key", key);
    element(out, "ETag", etag);
    return out.append("</CompleteMultipartUploadResult>\n").toString();
  }

  /** ListParts' result: every part staged (this server never truncates it). */
  public static String parts(
      String bucket, String key, String uploadId, List<MultipartUploads.Part> parts) {
    StringBuilder out = new StringBuilder(256 + 128 * parts.size()).append(HEAD);
    out.append("<ListPartsResult").append(NAMESPACE).append('>');
    element(out, "Bucket", bucket);
    element(out, "Key", key);
    element(out, "UploadId", uploadId);
    element(out, "MaxParts", MultipartUploads.MAX_PART_NUMBER);
    element(out, "IsTruncated", "false");
    for (MultipartUploads.Part p : parts) {
      out.append("<Part>");
      element(out, "PartNumber", p.number());
      element(out, "LastModified", time(p.stagedMillis()));
      element(out, "ETag", p.etag());
      element(out, "Size", p.size());
      out.append("</Part>");
    }
    return out.append("</ListPartsResult>\n").toString();
  }

  /** The parts a CompleteMultipartUpload request lists: number to ETag, in its order. */
  public static List<Map.Entry<Integer, String>> completeParts(byte[] xml) throws S3Exception {
    Element root = parse(xml, "CompleteMultipartUpload");
    List<Map.Entry<Integer, String>> parts = new ArrayList<>();
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && "Part".equals(e.getLocalName())) {
        String number = child(e, "PartNumber");
        String etag = child(e, "ETag");
        if (number == null || etag == null || parts.size() == MultipartUploads.MAX_PART_NUMBER) {
          throw new S3Exception(S3Error.MALFORMED_XML, "a Part needs a PartNumber and an ETag");
        }
        try {
          parts.add(Map.entry(Integer.parseInt(number.strip()), etag));
        } catch (NumberFormatException ex) {
          throw new S3Exception(S3Error.MALFORMED_XML, "PartNumber '" + number + "' is no number");
        }
      }
    }
    return parts;
  }

  /** CopyObject's result: the new object's ETag and time. */
  public static String copyResult(String etag, long modifiedMillis) {
    return copied("CopyObjectResult", etag, modifiedMillis);
  }

  private static String copied(String element, String etag, long modifiedMillis) {
    StringBuilder out = new StringBuilder(192).append(HEAD);
    out.append('<').append(element).append(NAMESPACE).append('>');
    element(out, "LastModified", time(modifiedMillis));
    element(out, "ETag", etag);
    return out.append("</").append(element).append(">\n").toString();
  }

  /** ListMultipartUploads' result: every upload in progress under the prefix (never truncated). */
  public static String uploads(
      String bucket, String prefix, List<MultipartUploads.InProgress> uploads) {
    StringBuilder out = new StringBuilder(256 + 192 * uploads.size()).append(HEAD);
    out.append("<ListMultipartUploadsResult").append(NAMESPACE).append('>');
    element(out, "Bucket", bucket);
    element(out, "KeyMarker", "");
    element(out, "UploadIdMarker", "");
    element(out, "Prefix", prefix);
    element(out, "MaxUploads", Math.max(1000, uploads.size()));
    element(out, "IsTruncated", "false");
    for (MultipartUploads.InProgress u : uploads) {
      out.append("<Upload>");
      element(out, "Key", u.key());
      element(out, "UploadId", u.uploadId());
      element(out, "Initiated", time(u.initiatedMillis()));
      element(out, "StorageClass", "STANDARD");
      out.append("</Upload>");
    }
    return out.append("</ListMultipartUploadsResult>\n").toString();
  }

  /** UploadPartCopy's result. */
  public static String copyPartResult(String etag, long modifiedMillis) {
    return copied("CopyPartResult", etag, modifiedMillis);
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
