"""Content stored in independent chunks (FORMAT.md "Chunked content", version 7): the chunks'
stored bytes back to back, then a table of one 12-byte slot per chunk (u64 end of its stored
bytes, u32 CRC32C of its raw bytes). Each chunk is decoded alone and checked against its own
CRC32C before any byte of it is handed out, so a read from an offset decodes and checks only the
chunks it touches."""

from __future__ import annotations

import struct

from typing import Any

from . import codecs
from ._types import ReadAt
from .errors import CorruptArchive

CHUNKED_FLAG = 2
MIN_SHIFT, MAX_SHIFT = 12, 20
SLOT = 12
_SLOT = struct.Struct("<QI")
CODEC_NONE, CODEC_LZ4 = 0, 1


def chunk_count(raw_length: int, shift: int) -> int:
    return ((raw_length - 1) >> shift) + 1


def lengths_possible(codec: int, raw_length: int, stored_length: int, shift: int) -> bool:
    """The rules a reader checks from the header alone: at least one chunk, a slot for each,
    at least one stored byte per chunk, and raw chunks stored as they are."""
    if raw_length == 0:
        return False
    k = chunk_count(raw_length, shift)
    area = stored_length - k * SLOT
    return area == raw_length if codec == CODEC_NONE else area >= k


class Chunks:
    """The chunks of one entry. `read(at, n)` gives n bytes of the entry's stored content from
    offset `at` (a part file, or the stored bytes in memory); `at` names the content's place in
    the part for messages."""

    def __init__(self, read: ReadAt, path: str, at: int, label: str, codec: int, raw_length: int,
                 stored_length: int, shift: int, dictionary: Any) -> None:
        self._read = read
        self.path, self.at, self.label = path, at, label
        self.codec, self.raw_length, self.shift, self.dictionary = codec, raw_length, shift, dictionary
        self.size = 1 << shift
        self.count = chunk_count(raw_length, shift)
        self.area = stored_length - self.count * SLOT
        self._window_first: int = -1
        self._window = b""

    def _slot(self, i: int) -> tuple[int, int]:
        """(end, crc) of slot i, read a window of slots at a time."""
        if not self._window_first <= i < self._window_first + len(self._window) // SLOT:
            n = min(4096, self.count - i)
            self._window_first = i
            self._window = self._read(self.area + i * SLOT, n * SLOT)
        end: int
        crc: int
        end, crc = _SLOT.unpack_from(self._window, (i - self._window_first) * SLOT)
        return end, crc

    def chunk(self, i: int) -> bytes:
        """The raw bytes of chunk i, decoded and checked against its CRC32C."""
        start = 0 if i == 0 else self._slot(i - 1)[0]
        end, crc = self._slot(i)
        raw = min(self.size, self.raw_length - (i << self.shift))
        stored = end - start
        fits = 0 < stored and end <= self.area and (
            stored == raw if self.codec == CODEC_NONE else stored <= 2 * self.size)
        if not fits:
            raise CorruptArchive(self.path, self.at + self.area + i * SLOT,
                                 f"{self.label}: chunk {i} stored at [{start}, {end}) does not fit "
                                 f"the {self.area} bytes of chunks ({raw} raw bytes)")
        if i == self.count - 1 and end != self.area:  # no spare bytes go unchecked
            raise CorruptArchive(self.path, self.at + self.area + i * SLOT,
                                 f"{self.label}: the last chunk ({i}) ends at {end}, not at the "
                                 f"end of the {self.area} bytes of chunks")
        data = self._read(start, stored)
        out = self._decode(i, bytes(data), raw)
        if codecs.crc32c(out) != crc:
            first = i << self.shift
            raise CorruptArchive(self.path, self.at + start,
                                 f"{self.label}: chunk {i} (raw bytes {first} to {first + raw}): "
                                 "checksum mismatch")
        return out

    def _decode(self, i: int, stored: bytes, raw: int) -> bytes:
        if self.codec == CODEC_NONE:
            return stored
        problem = None
        if self.codec == CODEC_LZ4:
            out = codecs.lz4_decompress(stored, raw)
        else:
            try:
                out = codecs.zstd_decompress(stored, raw, self.dictionary)
            except ValueError as e:
                out, problem = None, str(e)
        if out is None or len(out) != raw:
            raise CorruptArchive(self.path, self.at,
                                 f"{self.label}: chunk {i} does not decompress"
                                 + (f": {problem}" if problem else ""))
        return out

    def whole(self) -> bytes:
        """All the raw content, every chunk checked (the caller checks the entry's CRC32C)."""
        return b"".join(self.chunk(i) for i in range(self.count))
