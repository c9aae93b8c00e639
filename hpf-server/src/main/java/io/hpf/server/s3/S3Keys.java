package io.hpf.server.s3;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The access keys a server accepts: a file of lines {@code ACCESS_KEY SECRET_KEY} (blank lines and
 * lines starting with '#' ignored), as {@code hpf serve --s3-keys FILE} reads it.
 */
public final class S3Keys {
  /** A keys file is a few lines; anything larger is not one. */
  private static final long MAX_FILE_BYTES = 1 << 20;

  private static final int MAX_KEY_CHARS = 128;

  private final Map<String, String> secrets;

  private S3Keys(Map<String, String> secrets) {
    this.secrets = Map.copyOf(secrets);
  }

  /** Reads a keys file; a malformed line is an error naming the file and the line. */
  public static S3Keys read(Path file) throws IOException {
    if (Files.size(file) > MAX_FILE_BYTES) {
      throw new IOException(file + ": not a keys file (over 1 MiB)");
    }
    return parse(file.toString(), Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  static S3Keys parse(String source, List<String> lines) throws IOException {
    Map<String, String> secrets = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split("\\s+");
      String where = source + ":" + (i + 1) + ": ";
      if (fields.length != 2) {
        throw new IOException(where + "expected 'ACCESS_KEY SECRET_KEY'");
      }
      for (String f : fields) {
        if (f.length() > MAX_KEY_CHARS || !f.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
          throw new IOException(where + "keys are up to 128 printable ASCII characters");
        }
      }
      if (secrets.put(fields[0], fields[1]) != null) {
        throw new IOException(where + "access key '" + fields[0] + "' is given twice");
      }
    }
    if (secrets.isEmpty()) {
      throw new IOException(source + ": no keys in the file");
    }
    return new S3Keys(secrets);
  }

  /** The secret of an access key, or null when the key is not known. */
  String secret(String accessKey) {
    return secrets.get(accessKey);
  }
}
