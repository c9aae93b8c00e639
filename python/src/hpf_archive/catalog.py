"""A segment's catalog: sorted names with their metadata, in checksummed blocks
(FORMAT.md "Catalog"). Opened with two reads (trailer, index); a listing reads only the blocks it
returns rows from."""

from __future__ import annotations

import bisect
import heapq
from typing import Dict, Iterator, NamedTuple, Optional, Sequence

from . import codecs
from ._types import Reads
from .codecs import crc32c
from .errors import CorruptArchive
from .files import Section
from .wire import Cursor, check_header, FOOTER_BYTES, HEADER_BYTES

Row = tuple[bytes, "EntryInfo"]
"""A catalog row: the name's UTF-8 bytes and what the row says of it."""

TRAILER_BYTES = 32
MAX_BLOCK_RAW = 4 << 20


class EntryInfo(NamedTuple):
    """What the catalog (or an entry's header) knows of an entry, without its content. A tuple:
    a listing makes one per row, and a tuple is the cheapest object Python makes."""

    name: str
    deleted: bool
    raw_length: int = 0
    stored_length: int = 0
    codec: int = 0
    dictionary_id: int = 0
    mtime_millis: int = 0
    mode: int = 0
    part_id: int = 0
    offset: int = 0
    entry_length: int = 0
    attributes: Optional[Dict[str, str]] = None  # None only on tombstones, which stay inside
    # A member of a group (FORMAT.md "Group"): its index and the group's size; offset and
    # entry_length are then the group's.
    member: int = 0
    members: int = 0


class Catalog:
    def __init__(self, storage: Reads, section: Section) -> None:
        """Opens the catalog at a files.Section (its own file, or a range of a segment file)."""
        self.storage = storage
        self.path = section.describe(storage)
        self.section = section
        length = section.length
        if length < HEADER_BYTES + TRAILER_BYTES + FOOTER_BYTES:
            raise CorruptArchive(self.path, 0, f"a catalog of {length} bytes is too short")
        check_header(section.read(storage, 0, HEADER_BYTES), self.path, b"CATL")
        at = length - FOOTER_BYTES - TRAILER_BYTES
        t = Cursor(section.read(storage, at, TRAILER_BYTES), self.path, base=at)
        index_offset, index_length, index_crc = t.u64(), t.u32(), t.u32()
        self.row_count, block_count, reserved = t.u64(), t.u32(), t.u32()
        if reserved != 0:
            raise CorruptArchive(self.path, at + 28, "reserved trailer field is not 0")
        if index_offset < HEADER_BYTES or index_offset + index_length > at:
            raise CorruptArchive(self.path, at, "the block index lies outside the file")
        if block_count > index_length // 18:
            raise CorruptArchive(self.path, at, f"{block_count} blocks cannot fit the index")
        index = section.read(storage, index_offset, index_length)
        if crc32c(index) != index_crc:
            raise CorruptArchive(self.path, index_offset, "block index checksum mismatch")
        c = Cursor(index, self.path, base=index_offset)
        if c.u32("block count") != block_count:
            raise CorruptArchive(self.path, index_offset, "block counts disagree")
        self.blocks: list[tuple[int, int, int]] = []  # (offset, length, rows)
        self.first_names: list[bytes] = []  # UTF-8 bytes, for byte-order search
        for _ in range(block_count):
            offset, size, rows = c.u64(), c.u32(), c.u32()
            self.first_names.append(c.raw(c.u16(), "first name"))
            if offset < HEADER_BYTES or offset + size > index_offset:
                raise CorruptArchive(self.path, offset, "a block outside the blocks' area")
            self.blocks.append((offset, size, rows))

    def rows_from(self, start_utf8: bytes) -> Iterator[Row]:
        """Rows in name order from the first name ≥ start (UTF-8 bytes), a block at a time."""
        b = max(0, bisect.bisect_right(self.first_names, start_utf8) - 1)
        for i in range(b, len(self.blocks)):
            if i == b:  # only the first block can hold names before start
                yield from (row for row in self.block_rows(i) if row[0] >= start_utf8)
            else:
                yield from self.block_rows(i)

    def block_rows(self, i: int) -> Iterator[Row]:
        offset, size, rows = self.blocks[i]
        data = self.section.read(self.storage, offset, size)
        c = Cursor(data, self.path, base=offset)
        codec, raw_length, stored_length, crc = c.u8(), c.u32(), c.u32(), c.u32()
        if raw_length > MAX_BLOCK_RAW or rows > raw_length // 3 + 1 or stored_length != size - 13:
            raise CorruptArchive(self.path, offset, "block lengths out of bounds")
        stored = c.raw(stored_length, "block")
        if codec == 0:
            raw = stored
        elif codec == 1:
            decoded = codecs.lz4_decompress(stored, raw_length)
            if decoded is None:
                raise CorruptArchive(self.path, offset, "catalog block does not decompress")
            raw = decoded
        else:
            raise CorruptArchive(self.path, offset, f"unknown catalog block codec {codec}")
        if len(raw) != raw_length or crc32c(raw) != crc:
            raise CorruptArchive(self.path, offset, "catalog block checksum mismatch")
        try:
            yield from _rows(raw, rows)
        except (IndexError, UnicodeDecodeError, _RowError) as e:
            raise CorruptArchive(self.path, offset, f"catalog block rows out of bounds ({e})") from None


class _RowError(Exception):
    pass


def _varints(raw: bytes, pos: int, count: int) -> tuple[list[int], int]:
    """The `count` LEB128 varints from pos, and the position after them; IndexError past the
    end. Most are one byte: that case costs one comparison."""
    out: list[int] = []
    for _ in range(count):
        b = raw[pos]
        pos += 1
        if b < 0x80:
            out.append(b)
            continue
        result, shift = b & 0x7F, 7
        while True:
            b = raw[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if b < 0x80:
                break
            shift += 7
            if shift > 63:
                raise _RowError("a varint over 10 bytes")
        out.append(result)
    return out, pos


def _take(raw: bytes, pos: int, n: int) -> tuple[bytes, int]:
    end = pos + n
    if end > len(raw):
        raise _RowError("a field runs past the block")
    return raw[pos:end], end


def _rows(raw: bytes, rows: int) -> Iterator[Row]:
    """(name bytes, EntryInfo) of each row of a decoded block (FORMAT.md "Catalog"). Written
    out, not through Cursor: a listing decodes every row, and calls are what cost in CPython.
    Any read past the end raises IndexError or _RowError, which the caller names."""
    previous = b""
    pos = 0
    for _ in range(rows):
        (shared, n), pos = _varints(raw, pos, 2)
        if shared > len(previous):
            raise _RowError("a row shares more than its predecessor")
        suffix, pos = _take(raw, pos, n)
        name = previous[:shared] + suffix if shared else suffix
        previous = name
        flags = raw[pos]
        if flags > 2:
            raise _RowError("reserved row flag bits set")
        text = name.decode("utf-8", "surrogateescape")  # bytes not UTF-8 kept (names.py)
        if flags & 1:
            pos += 1
            yield name, EntryInfo(text, True)
            continue
        (raw_len, stored_len), pos = _varints(raw, pos + 1, 2)
        codec_id = raw[pos]
        member = members = 0
        if flags == 2:  # in a group: its index and the group's size follow the entry length
            (dictionary, mtime, mode, part, off, entry_len, member, members, count), pos = \
                _varints(raw, pos + 1, 9)
            if member >= members:
                raise _RowError("a member index past its group")
        else:
            (dictionary, mtime, mode, part, off, entry_len, count), pos = _varints(raw, pos + 1, 7)
        attributes: dict[str, str] = {}
        for _ in range(count):
            (n,), pos = _varints(raw, pos, 1)
            key, pos = _take(raw, pos, n)
            (n,), pos = _varints(raw, pos, 1)
            value, pos = _take(raw, pos, n)
            attributes[key.decode("utf-8", "surrogateescape")] = value.decode(
                "utf-8", "surrogateescape")
        yield name, EntryInfo(text, False, raw_len, stored_len, codec_id, dictionary,
                              (mtime >> 1) ^ -(mtime & 1), mode, part, off, entry_len, attributes,
                              member, members)


def merged(catalogs_newest_first: Sequence[Catalog], prefix_utf8: bytes,
           start_utf8: bytes) -> Iterator[EntryInfo]:
    """Live entries under a prefix in byte order: the newest row of a name wins; a tombstone
    hides it (FORMAT.md "Listing")."""
    if len(catalogs_newest_first) == 1:  # one segment: its rows are the listing
        for name, info in catalogs_newest_first[0].rows_from(start_utf8):
            if not name.startswith(prefix_utf8):
                if name > prefix_utf8:
                    return
                continue
            if not info.deleted:
                yield info
        return
    for _, _, info in merged_ranked(catalogs_newest_first, prefix_utf8, start_utf8):
        yield info


def merged_ranked(catalogs_newest_first: Sequence[Catalog], prefix_utf8: bytes,
                  start_utf8: bytes) -> Iterator[tuple[int, bytes, EntryInfo]]:
    """As merged, each live row as (index of its catalog, name as UTF-8, row)."""
    def ranked(rank: int, catalog: Catalog) -> Iterator[tuple[bytes, int, EntryInfo]]:
        # binds rank now: a generator expression would read it late
        return ((name, rank, info) for name, info in catalog.rows_from(start_utf8))
    streams = [ranked(rank, cat) for rank, cat in enumerate(catalogs_newest_first)]
    last: bytes | None = None
    for name, rank, info in heapq.merge(*streams, key=lambda t: (t[0], t[1])):
        if not name.startswith(prefix_utf8):
            if name > prefix_utf8:
                break
            continue
        if name == last:
            continue
        last = name
        if not info.deleted:
            yield rank, name, info
