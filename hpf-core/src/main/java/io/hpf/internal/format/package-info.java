/**
 * Internal: the bytes of every file FORMAT.md describes that are not an index or a catalog — file
 * headers and footers ({@code FileFraming}), entries and groups ({@code EntryCodec}, {@code
 * EntryReader}), chunked content, names and their hash. {@code FormatConstants} names the fields of
 * FORMAT.md.
 *
 * <table>
 *   <caption>Which record describes an entry where</caption>
 *   <tr><th>record</th><th>what it is</th><th>who makes it</th></tr>
 *   <tr><td>{@code EntryHeader}</td><td>the header in front of the content in a part file, as
 *       parsed and checked</td><td>{@code EntryCodec}</td></tr>
 *   <tr><td>{@code PartEntry}</td><td>an entry found in a part file: offset, header, and its
 *       group when a member</td><td>{@code EntryReader}, {@code PartScanner}</td></tr>
 *   <tr><td>{@code CheckedEntry}</td><td>a {@code PartEntry} found for serving, with its
 *       content CRC and, when small, its checked content</td><td>{@code EntryReader}</td></tr>
 *   <tr><td>{@link io.hpf.archive.model.EntryInfo}</td><td>the catalog's row: everything known
 *       without reading content</td><td>catalogs, the writer</td></tr>
 *   <tr><td>{@link io.hpf.archive.FetchedEntry}</td><td>the API's {@code CheckedEntry}: row,
 *       CRC, small content</td><td>{@code ArchiveReader.fetch}</td></tr>
 *   <tr><td>{@link io.hpf.archive.model.EntryMetadata}</td><td>what a writer is given to store with
 *       an entry (mtime, mode, attributes)</td><td>callers of the writer</td></tr>
 * </table>
 *
 * <p>May import (checked by ArchitectureTest): io.hpf.archive.model, io.hpf.internal.io,
 * io.hpf.store.
 */
package io.hpf.internal.format;
