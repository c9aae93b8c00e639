package io.hpf.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** HTTP by hand over a socket: requests no client library would send as written. */
public final class RawHttp implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  public RawHttp(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** A response: status code, head (lower-cased names) and body. */
  public record Response(int status, String head, byte[] body) {
    public String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }

    public String header(String name) {
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
          return line.substring(colon + 1).strip();
        }
      }
      return null;
    }
  }

  public void send(String raw) throws IOException {
    out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  public void sendBytes(byte[] raw) throws IOException {
    out.write(raw);
    out.flush();
  }

  /** Sends a GET of {@code target} exactly as written and reads the response. */
  public Response get(String target) throws IOException {
    send("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
    return read();
  }

  /** Reads one response with a Content-Length or chunked body. */
  public Response read() throws IOException {
    String head = readHead();
    if (head == null) {
      return null;
    }
    int status = Integer.parseInt(head.substring(9, 12));
    Response partial = new Response(status, head, new byte[0]);
    String length = partial.header("content-length");
    byte[] body;
    if (length != null) {
      body = in.readNBytes(Integer.parseInt(length));
    } else if ("chunked".equalsIgnoreCase(partial.header("transfer-encoding"))) {
      body = readChunked();
    } else {
      body = new byte[0];
    }
    return new Response(status, head, body);
  }

  /** True if the server closed the connection (a read sees the end). */
  public boolean closedByServer() {
    try {
      return in.read() < 0;
    } catch (IOException e) {
      return true;
    }
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        return head.size() == 0 ? null : head.toString(StandardCharsets.ISO_8859_1);
      }
      head.write(b);
      matched =
          (b == '\r' && (matched == 0 || matched == 2))
                  || (b == '\n' && (matched == 1 || matched == 3))
              ? matched + 1
              : 0;
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  private byte[] readChunked() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String line = readLine();
      int size = Integer.parseInt(line.strip(), 16);
      if (size == 0) {
        readLine();
        return body.toByteArray();
      }
      body.write(in.readNBytes(size));
      readLine();
    }
  }

  private String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
