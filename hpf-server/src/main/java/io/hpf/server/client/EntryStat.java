package io.hpf.server.client;

/**
 * An entry's metadata as a HEAD request gives it.
 *
 * @param length content bytes
 * @param etag the content's CRC32C as the server's ETag (quoted hex)
 * @param lastModified the Last-Modified header (an HTTP date, to the second)
 */
public record EntryStat(long length, String etag, String lastModified) {}
