"""Appends entries to one part file (FORMAT.md "Part file"): small ones gathered into groups,
large ones in chunks, content over the in-memory limit streamed raw. Keeps each entry's catalog
row. Internal to the writer."""

from __future__ import annotations

from typing import Any, BinaryIO, Callable

from ..codecs import crc32c
from . import entries
from .bytes_out import Out, file_header
from .entries import Compressor, Prepared
from .segment import Row

COPY_BYTES = 1 << 20


class PartWriter:
    def __init__(self, f: BinaryIO, part_id: int, compressor: Compressor, group_bytes: int,
                 group_max: int) -> None:
        self.f, self.part_id, self.c = f, part_id, compressor
        self.group_bytes = group_bytes if compressor.codec != entries.NONE else 0
        self.group_max = group_max
        self.rows: list[Row] = []
        self.group = Out()
        self.members: list[tuple[bytes, int, int, int, list[Any]]] = []
        f.write(bytes(file_header(b"PART")))
        self.length = 16  # the end of the last entry written whole

    def add(self, name: bytes, raw: bytes, mtime: int, mode: int, attributes: list[Any],
            fits_group: bool) -> None:
        if self.group_bytes and len(raw) <= self.group_max and fits_group:
            entries.member(self.group, name, raw, mtime, mode, attributes)
            self.members.append((name, len(raw), mtime, mode, attributes))
            if len(self.group) >= self.group_bytes:
                self.write_group()
            return
        p = entries.prepare(self.c, name, raw, mtime, mode, attributes)
        offset = self._write(p)
        self.rows.append(Row(name, False, len(raw), p.stored_length, p.codec, p.dictionary_id,
                             mtime, mode, self.part_id, offset, p.length, 0, 0, attributes))

    def add_stream(self, name: bytes, read: Callable[[int], bytes], size: int, mtime: int,
                   mode: int, attributes: list[Any], source: str) -> None:
        """Content too large to hold in memory: stored raw, in chunks, its table after it."""
        shift = entries.chunk_shift(size)
        stored = size + entries.table_length(size, shift)
        head = entries.header(name, entries.FLAG_CHUNKED, shift, entries.NONE, 0, size, stored,
                              mtime, mode, attributes)
        offset = self.length
        self.f.write(bytes(head))
        chunks = _ChunkCrcs(1 << shift)
        whole, left = 0, size
        while left:
            piece = read(min(COPY_BYTES, left))
            if not piece:
                raise OSError(f"{source}: ended {left} bytes early (did it shrink while read?)")
            piece = piece[:left]
            whole = crc32c(piece, whole)
            chunks.update(piece)
            left -= len(piece)
            self.f.write(piece)
        self.f.write(entries.chunk_table_raw(size, shift, chunks.finish()))
        self.f.write(whole.to_bytes(4, "little"))
        length = len(head) + stored + 4
        self.length += length
        self.rows.append(Row(name, False, size, stored, entries.NONE, 0, mtime, mode, self.part_id,
                             offset, length, 0, 0, attributes))

    def write_group(self) -> None:
        if not self.members:
            return
        p = entries.prepare_group(self.c, bytes(self.group))
        offset = self._write(p)
        k = len(self.members)
        for i, (name, size, mtime, mode, attributes) in enumerate(self.members):
            self.rows.append(Row(name, False, size, size, p.codec, p.dictionary_id, mtime, mode,
                                 self.part_id, offset, p.length, i, k, attributes))
        self.group = Out()
        self.members = []

    def _write(self, p: Prepared) -> int:
        offset = self.length
        self.f.write(bytes(p.head))
        for piece in p.pieces:
            self.f.write(piece)
        self.f.write(p.trailer)
        self.length += p.length
        return offset


class _ChunkCrcs:
    """The CRC32C of each chunk of `size` raw bytes of content that comes in pieces."""

    def __init__(self, size: int) -> None:
        self.crcs: list[int] = []
        self.size, self.crc, self.filled = size, 0, 0

    def update(self, piece: bytes) -> None:
        view = memoryview(piece)
        while view:
            take = min(self.size - self.filled, len(view))
            self.crc = crc32c(view[:take], self.crc)
            self.filled += take
            view = view[take:]
            if self.filled == self.size:
                self.crcs.append(self.crc)
                self.crc, self.filled = 0, 0

    def finish(self) -> list[int]:
        if self.filled:
            self.crcs.append(self.crc)
        return self.crcs
