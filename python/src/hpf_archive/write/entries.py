"""Entries as a writer encodes them (FORMAT.md "Entry", "Chunked content", "Group"): content
compressed where that shrinks it, headers with their CRC32C, chunk tables, group members.
Internal to the writer; the choices (when to chunk, chunk sizes) are hpf's Java writer's, so that
both write the same bytes from the same input."""

from __future__ import annotations

from typing import Any, Optional

from ..codecs import crc32c
from .bytes_out import Out, sorted_attributes

NONE, LZ4, ZSTD = 0, 1, 2
CODECS = {"none": NONE, "lz4": LZ4, "zstd": ZSTD}
ENTRY_MAGIC = 0x45465048
FLAG_GROUP, FLAG_CHUNKED = 1, 2
MAX_LZ4_RAW = 64 << 20  # an LZ4 block is decoded whole (FORMAT.md "Limits")
MAX_HEADER = 1 << 20
CHUNKED_OVER = 1 << 20  # content of more raw bytes is stored in chunks
DEFAULT_CHUNK_SHIFT, MAX_CHUNK_SHIFT, MAX_CHUNKS_WANTED = 18, 20, 1 << 16
MAX_MEMBER_METADATA = 128 << 10  # a member's name and attributes, so a group stays far under 1 MiB


class Compressor:
    """Compresses content with one codec; None where the result would not be smaller."""

    def __init__(self, codec: int, level: int = 3, dictionary: Optional[bytes] = None,
                 dictionary_id: int = 0) -> None:
        self.codec = codec
        self.dictionary_id = dictionary_id if codec == ZSTD and dictionary else 0
        self._zstd = None
        if codec == ZSTD:
            import zstandard

            d = zstandard.ZstdCompressionDict(dictionary) if self.dictionary_id and dictionary \
                else None
            self._zstd = zstandard.ZstdCompressor(level=level, dict_data=d, write_checksum=False,
                                                  write_content_size=True)
        elif codec == LZ4:
            import lz4.block

            self._lz4 = lz4.block

    def always(self, raw: bytes | memoryview) -> bytes:
        """The compressed bytes whether or not they are smaller (a chunk keeps its entry's codec)."""
        if self.codec == LZ4:
            return bytes(self._lz4.compress(raw, store_size=False))
        assert self._zstd is not None
        return self._zstd.compress(raw)

    def compress(self, raw: bytes | memoryview) -> Optional[bytes]:
        if self.codec == NONE or (self.codec == LZ4 and len(raw) > MAX_LZ4_RAW):
            return None
        out = self.always(raw)
        return out if len(out) < len(raw) else None


def header(name: bytes, flags: int, shift: int, codec: int, dictionary_id: int, raw_length: int,
           stored_length: int, mtime: int, mode: int, attributes: list[tuple[bytes, bytes]]) -> Out:
    """An entry header, its length and CRC32C filled in."""
    out = Out().u32(ENTRY_MAGIC).u32(0).u8(codec).u8(flags).u16(len(name)).u32(dictionary_id)
    out.u64(raw_length).u64(stored_length).i64(mtime).u32(mode).u16(len(attributes)).u16(shift)
    out += name
    for k, v in attributes:
        out.u16(len(k))
        out += k
        out.u32(len(v))
        out += v
    if len(out) + 4 > MAX_HEADER:
        raise ValueError(f"name and attributes take {len(out) + 4} bytes, more than the 1 MiB an "
                         "entry header may have")
    out[4:8] = (len(out) + 4).to_bytes(4, "little")
    return out.crc_of(0)


def group_header(codec: int, dictionary_id: int, raw_length: int, stored_length: int) -> Out:
    return header(b"", FLAG_GROUP, 0, codec, dictionary_id, raw_length, stored_length, 0, 0, [])


def chunks(raw_length: int) -> bool:
    return raw_length > CHUNKED_OVER


def chunk_shift(raw_length: int) -> int:
    shift = DEFAULT_CHUNK_SHIFT
    while shift < MAX_CHUNK_SHIFT and (raw_length >> shift) >= MAX_CHUNKS_WANTED:
        shift += 1
    return shift


def table_length(raw_length: int, shift: int) -> int:
    return (((raw_length - 1) >> shift) + 1) * 12


class Prepared:
    """An entry ready to append: header, stored pieces, trailer; what its row needs."""

    __slots__ = ("codec", "dictionary_id", "head", "pieces", "stored_length", "trailer")

    def __init__(self, codec: int, dictionary_id: int, head: Out, pieces: list[Any], stored_length: int,
                 content_crc: int) -> None:
        self.codec, self.dictionary_id, self.head = codec, dictionary_id, head
        self.pieces, self.stored_length = pieces, stored_length
        self.trailer = content_crc.to_bytes(4, "little")

    @property
    def length(self) -> int:
        return len(self.head) + self.stored_length + 4


def prepare(c: Compressor, name: bytes, raw: bytes, mtime: int, mode: int,
            attributes: list[tuple[bytes, bytes]]) -> Prepared:
    """An entry of content held in memory: in one piece, or in chunks over 1 MiB."""
    if chunks(len(raw)):
        return _prepare_chunked(c, name, raw, mtime, mode, attributes)
    codec, dictionary_id, body = _one_piece(c, raw)
    head = header(name, 0, 0, codec, dictionary_id, len(raw), len(body), mtime, mode, attributes)
    return Prepared(codec, dictionary_id, head, [body], len(body), crc32c(raw))


def prepare_group(c: Compressor, raw: bytes) -> Prepared:
    codec, dictionary_id, body = _one_piece(c, raw)
    head = group_header(codec, dictionary_id, len(raw), len(body))
    return Prepared(codec, dictionary_id, head, [body], len(body), crc32c(raw))


def _one_piece(c: Compressor, raw: bytes) -> tuple[int, int, bytes]:
    """Codec, dictionary id and stored bytes of content in one piece: raw unless that shrinks."""
    stored = c.compress(raw)
    if stored is None:
        return NONE, 0, raw
    return c.codec, c.dictionary_id, stored


def _prepare_chunked(c: Compressor, name: bytes, raw: bytes, mtime: int, mode: int,
                     attributes: list[tuple[bytes, bytes]]) -> Prepared:
    shift = chunk_shift(len(raw))
    size = 1 << shift
    view = memoryview(raw)
    pieces_raw = [view[i:i + size] for i in range(0, len(raw), size)]
    crcs = [crc32c(p) for p in pieces_raw]
    if c.codec != NONE:
        stored = [c.always(p) for p in pieces_raw]
        area = sum(len(p) for p in stored)
        if area < len(raw):
            table, end = Out(), 0
            for p, crc in zip(stored, crcs):
                end += len(p)
                table.u64(end).u32(crc)
            return _chunked(c.codec, c.dictionary_id, shift, name, raw, stored + [bytes(table)],
                            area + len(table), mtime, mode, attributes)
    raw_table = chunk_table_raw(len(raw), shift, crcs)
    return _chunked(NONE, 0, shift, name, raw, [raw, raw_table], len(raw) + len(raw_table), mtime,
                    mode, attributes)


def chunk_table_raw(raw_length: int, shift: int, crcs: list[int]) -> bytes:
    """The table of content stored raw in chunks: each chunk ends where its raw bytes do."""
    table = Out()
    for i, crc in enumerate(crcs):
        table.u64(min(raw_length, (i + 1) << shift)).u32(crc)
    return bytes(table)


def _chunked(codec: int, dictionary_id: int, shift: int, name: bytes, raw: bytes, pieces: list[Any],
             stored_length: int, mtime: int, mode: int,
             attributes: list[tuple[bytes, bytes]]) -> Prepared:
    head = header(name, FLAG_CHUNKED, shift, codec, dictionary_id, len(raw), stored_length, mtime,
                  mode, attributes)
    return Prepared(codec, dictionary_id, head, pieces, stored_length, crc32c(raw))


def member(out: Out, name: bytes, content: bytes, mtime: int, mode: int,
           attributes: list[tuple[bytes, bytes]]) -> None:
    """Appends a group member (FORMAT.md "Group"): its header, then its content."""
    out.varint(len(name))
    out += name
    out.varint(len(content)).zigzag(mtime).varint(mode).varint(len(attributes))
    for k, v in attributes:
        out.varint(len(k))
        out += k
        out.varint(len(v))
        out += v
    out += content


def fits_group(name: bytes, attributes: dict[str, str] | None) -> bool:
    """Whether a member's name and attributes are small enough for a group (as Java counts)."""
    n = len(name) + sum(3 * (len(k) + len(v)) for k, v in (attributes or {}).items())
    return n <= MAX_MEMBER_METADATA


__all__ = ["Compressor", "Prepared", "prepare", "prepare_group", "member", "fits_group",
           "sorted_attributes", "CODECS"]
