package io.hpf.internal.format;

/**
 * An entry found for serving: its header, the CRC32C of its raw content as stored in its trailer,
 * and its content when it was small enough to return whole (checked against that CRC).
 *
 * @param entry where the entry lies and its checked header
 * @param crc32c the content checksum the entry carries (an HTTP ETag, say)
 * @param content the checked raw content, or null when it was not asked for whole
 */
public record CheckedEntry(PartEntry entry, int crc32c, byte[] content) {}
