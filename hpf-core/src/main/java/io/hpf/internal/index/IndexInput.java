package io.hpf.internal.index;

/**
 * A name and its record, as given to {@link SegmentIndexWriter}.
 *
 * @param nameUtf8 the entry name's UTF-8 bytes
 * @param record the record; its fingerprint is the name hash of {@code nameUtf8}
 */
public record IndexInput(byte[] nameUtf8, IndexRecord record) {}
