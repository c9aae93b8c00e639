package io.hpf.server.s3;

import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * S3's DeleteObjects: the request's {@code <Delete>} (up to 1,000 {@code <Object><Key>}s, and
 * {@code <Quiet>}) read with a parser that takes no DTD and no external entity, and the {@code
 * <DeleteResult>} answered.
 *
 * @param keys the keys to delete, in the request's order
 * @param quiet whether the result lists only the errors
 */
public record DeleteObjects(List<String> keys, boolean quiet) {
  public static final int MAX_KEYS = 1000;

  /** Reads the request body. */
  public static DeleteObjects parse(byte[] xml) throws S3Exception {
    Element root = S3Xml.parse(xml, "Delete");
    List<String> keys = new ArrayList<>();
    boolean quiet = false;
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (!(n instanceof Element e)) {
        continue;
      }
      if ("Quiet".equals(e.getLocalName())) {
        quiet = "true".equalsIgnoreCase(e.getTextContent().strip());
      } else if ("Object".equals(e.getLocalName())) {
        String key = S3Xml.child(e, "Key");
        if (key == null || key.isEmpty()) {
          throw new S3Exception(S3Error.MALFORMED_XML, "an Object of the request has no Key");
        }
        if (keys.size() == MAX_KEYS) {
          throw new S3Exception(
              S3Error.MALFORMED_XML, "a DeleteObjects request names at most " + MAX_KEYS + " keys");
        }
        keys.add(key);
      }
    }
    if (keys.isEmpty()) {
      throw new S3Exception(S3Error.MALFORMED_XML, "the Delete request names no Object");
    }
    return new DeleteObjects(keys, quiet);
  }

  /** One key's failure, as the result lists it. */
  public record Failure(String key, S3Error error, String message) {}

  /** The {@code <DeleteResult>}: the keys deleted (unless quiet) and the failures. */
  public String result(List<String> deleted, List<Failure> failures) {
    StringBuilder out = new StringBuilder(128 + 64 * keys.size()).append(S3Xml.HEAD);
    out.append("<DeleteResult").append(S3Xml.NAMESPACE).append('>');
    if (!quiet) {
      for (String key : deleted) {
        out.append("<Deleted>");
        S3Xml.element(out, "Key", key);
        out.append("</Deleted>");
      }
    }
    for (Failure f : failures) {
      out.append("<Error>");
      S3Xml.element(out, "Key", f.key());
      S3Xml.element(out, "Code", f.error().code());
      S3Xml.element(out, "Message", f.message());
      out.append("</Error>");
    }
    return out.append("</DeleteResult>\n").toString();
  }
}
