"""Writes a segment file (FORMAT.md "Segment file", "Catalog", "Bucket file", "Directory"): the
catalog of a commit's rows, then its index's buckets, then any dictionaries, and the segment's
entry for the manifest. Block cuts, bucket splits and seeds are those of hpf's Java writer.
Internal to the writer."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional

from ..codecs import crc32c, xxh64_intdigest
from . import pthash
from .bytes_out import Out, file_header, footer, sorted_attributes
from .entries import Compressor, LZ4

BLOCK_TARGET = 32 * 1024
TOMBSTONE_PART = 0xFFFFFFFF
MAX_GLOBAL_DEPTH = 24
REGION_RECORDS = 1 << 18
SEED_ATTEMPTS = 64
FLAG_DELETED, FLAG_IN_GROUP = 1, 2


class Row:
    """A catalog row: an entry, a group member (members > 0) or a tombstone (deleted)."""

    __slots__ = ("name", "deleted", "raw", "stored", "codec", "dictionary_id", "mtime", "mode",
                 "part_id", "offset", "length", "member", "members", "attributes")

    def __init__(self, name: bytes, deleted: bool = False, raw: int = 0, stored: int = 0,
                 codec: int = 0, dictionary_id: int = 0, mtime: int = 0, mode: int = 0,
                 part_id: int = 0, offset: int = 0, length: int = 0, member: int = 0,
                 members: int = 0, attributes: Optional[list[Any]] = None) -> None:
        self.name, self.deleted, self.raw, self.stored = name, deleted, raw, stored
        self.codec, self.dictionary_id, self.mtime, self.mode = codec, dictionary_id, mtime, mode
        self.part_id, self.offset, self.length = part_id, offset, length
        self.member, self.members, self.attributes = member, members, attributes or []

    @classmethod
    def of(cls, info: Any, part_id: Optional[int] = None) -> Row:
        """The row of a reader's EntryInfo, in part `part_id` if given (a part moved in)."""
        return cls(info.name.encode("utf-8", "surrogateescape"), False, info.raw_length,
                   info.stored_length, info.codec, info.dictionary_id, info.mtime_millis,
                   info.mode, info.part_id if part_id is None else part_id, info.offset,
                   info.entry_length, info.member, info.members,
                   sorted_attributes(info.attributes, escaped=True))

    def accounted(self) -> int:
        """Bytes of part files this row's entry takes (a member: its share of its group)."""
        return share(self.length, self.member, self.members)


def share(length: int, member: int, members: int) -> int:
    """Bytes of part files an entry takes (FORMAT.md "Manifest", live entry bytes): its length,
    or a member's share of its group's, the remainder going to the first members."""
    if members == 0:
        return length
    return length // members + (1 if member < length % members else 0)


def accounted(info: Any) -> int:
    """As Row.accounted, of a reader's EntryInfo."""
    return share(int(info.entry_length), int(info.member), int(info.members))


class Bucket(NamedTuple):
    number: int
    local_depth: int
    key_count: int
    meta_length: int
    length: int
    offset: int


class Written(NamedTuple):
    """What the manifest says of a segment, and where its dictionaries went (id -> offset)."""

    segment_id: int
    entry_count: int
    tombstone_count: int
    catalog_length: int
    file_length: int
    global_depth: int
    buckets: list[Any]
    leaves: list[Any]
    dictionaries: dict[int, int]


def write(sink: Callable[[bytes], None], segment_id: int, rows: list[Row], bucket_capacity: int,
          dictionaries: list[tuple[int, bytes]]) -> Written:
    """Writes the segment file through `sink` (its bytes in order). REQUIRES: rows in unsigned
    byte order of their names, each name once."""
    out = _Counted(sink)
    out.write(bytes(file_header(b"SEGM")))
    catalog = catalog_bytes(rows)
    out.write(catalog)
    depth, buckets, leaves = _index(out, rows, bucket_capacity)
    placed = {}
    for dictionary_id, data in dictionaries:
        section = file_header(b"DICT").u32(dictionary_id).u32(len(data))
        section += data
        placed[dictionary_id] = out.position
        out.write(bytes(section) + footer(crc32c(bytes(section))))
    length = out.finish()
    tombstones = sum(1 for r in rows if r.deleted)
    return Written(segment_id, len(rows) - tombstones, tombstones, len(catalog), length, depth,
                   buckets, leaves, placed)


class _Counted:
    """The segment file's bytes: where the next one goes, and the CRC32C of all so far."""

    def __init__(self, sink: Callable[[bytes], None]) -> None:
        self.sink, self.position, self.crc = sink, 0, 0

    def write(self, data: bytes) -> None:
        self.crc = crc32c(data, self.crc)
        self.position += len(data)
        self.sink(data)

    def finish(self) -> int:
        self.sink(footer(self.crc))
        return self.position + 8


def catalog_bytes(rows: list[Row]) -> bytes:
    """The catalog section: blocks of about 32 KiB of rows (LZ4 where that shrinks them), the block
    index, the trailer and the footer."""
    lz4 = Compressor(LZ4)
    out = file_header(b"CATL")
    index, block = Out(), Out()
    first, previous, in_block, blocks = b"", b"", 0, 0

    def flush() -> None:
        nonlocal in_block, blocks
        stored = lz4.compress(bytes(block))
        body = stored if stored is not None else bytes(block)
        index.u64(len(out)).u32(13 + len(body)).u32(in_block).u16(len(first))
        index.extend(first)
        out.u8(LZ4 if stored is not None else 0).u32(len(block)).u32(len(body))
        out.u32(crc32c(bytes(block)))
        out.extend(body)
        block.clear()
        in_block, blocks = 0, blocks + 1

    for r in rows:
        if in_block == 0:
            first, shared = r.name, 0
        else:
            shared = _shared(previous, r.name)
        _row(block, r, shared)
        previous, in_block = r.name, in_block + 1
        if len(block) >= BLOCK_TARGET:
            flush()
    if in_block:
        flush()
    index_at = len(out)
    section = Out().u32(blocks)
    section += index
    out += section
    out.u64(index_at).u32(len(section)).u32(crc32c(bytes(section))).u64(len(rows)).u32(blocks)
    out.u32(0)
    return bytes(out) + footer(crc32c(bytes(out)))


def _shared(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _row(block: Out, r: Row, shared: int) -> None:
    block.varint(shared).varint(len(r.name) - shared)
    block += r.name[shared:]
    if r.deleted:
        block.u8(FLAG_DELETED)
        return
    block.u8(FLAG_IN_GROUP if r.members else 0)
    block.varint(r.raw).varint(r.stored).u8(r.codec).varint(r.dictionary_id).zigzag(r.mtime)
    block.varint(r.mode).varint(r.part_id).varint(r.offset).varint(r.length)
    if r.members:
        block.varint(r.member).varint(r.members)
    block.varint(len(r.attributes))
    for k, v in r.attributes:
        block.varint(len(k))
        block += k
        block.varint(len(v))
        block += v


def _index(out: _Counted, rows: list[Row], capacity: int) -> tuple[int, list[Any], list[Any]]:
    """Splits the names by extendible hashing into buckets of at most `capacity`, writes each
    bucket, and returns the global depth, the bucket descriptors and the directory's leaves."""
    region_depth = 0
    while (len(rows) >> region_depth) > REGION_RECORDS:
        region_depth += 1
    keyed = [(xxh64_intdigest(r.name), r) for r in rows]
    regions: list[list[Any]] = [[] for _ in range(1 << region_depth)]
    for item in keyed:
        regions[item[0] >> (64 - region_depth) if region_depth else 0].append(item)
    placed: list[tuple[int, int, int]] = []
    buckets: list[Bucket] = []
    for prefix, region in enumerate(regions):
        region.sort(key=lambda item: item[0])
        leaves: list[Any] = []
        _split(region, 0, len(region), region_depth, prefix, capacity, leaves)
        for depth, leaf_prefix, lo, hi in leaves:
            number = -1
            if hi > lo:
                number = len(buckets)
                buckets.append(_bucket(out, region[lo:hi], depth, number))
            placed.append((depth, leaf_prefix, number))
    g = max(depth for depth, _, _ in placed)
    pointers = [-1] * (1 << g)
    for depth, leaf_prefix, number in placed:
        shift = g - depth
        first = leaf_prefix << shift
        pointers[first:first + (1 << shift)] = [number] * (1 << shift)
    return g, buckets, _leaves(pointers, g, buckets)


def _split(items: list[Any], lo: int, hi: int, depth: int, prefix: int, capacity: int,
           out: list[Any]) -> None:
    count = hi - lo
    same = count > 0 and items[lo][0] == items[hi - 1][0]
    if count <= capacity or depth == MAX_GLOBAL_DEPTH or same:
        out.append((depth, prefix, lo, hi))
        return
    bit = 1 << (63 - depth)
    mid = lo
    while mid < hi and not items[mid][0] & bit:
        mid += 1
    _split(items, lo, mid, depth + 1, prefix << 1, capacity, out)
    _split(items, mid, hi, depth + 1, (prefix << 1) | 1, capacity, out)


def _bucket(out: _Counted, items: list[Any], depth: int, number: int) -> Bucket:
    names = [r.name for _, r in items]
    for seed in range(1, SEED_ATTEMPTS + 2):
        keys = [xxh64_intdigest(n, seed) for n in names]
        try:
            encoded, slots = pthash.build(keys)
            break
        except pthash.Unbuildable:
            if len(set(names)) != len(names):
                raise ValueError("duplicate entry name in one segment") from None
    else:
        raise ValueError(f"no perfect hash after {SEED_ATTEMPTS} seeds")
    by_slot: list[Any] = [None] * len(items)
    for slot, item in zip(slots, items):
        by_slot[slot] = item
    meta = file_header(b"BUCK").u32(len(items)).u32(32).u64(seed).u32(len(encoded))
    meta += encoded
    meta += bytes(h & 0xFF for h, _ in by_slot)
    meta.crc_of(16)
    section = Out(meta)
    for h, r in by_slot:
        record = Out().u64(h)
        if r.deleted:
            record.u64(0).u64(0).u32(TOMBSTONE_PART)
        else:
            record.u64(r.offset).u64(r.length).u32(r.part_id)
        section += record.crc_of(0)
    data = bytes(section) + footer(crc32c(bytes(section)))
    offset = out.position
    out.write(data)
    return Bucket(number, depth, len(items), len(meta), len(data), offset)


def _leaves(pointers: list[int], g: int, buckets: list[Any]) -> list[tuple[int, int]]:
    """The directory's leaves in pointer order, as FORMAT.md "Directory" reads them."""
    leaves: list[tuple[int, int]] = []
    i = 0
    while i < len(pointers):
        number = pointers[i]
        run = 1
        while i + run < len(pointers) and pointers[i + run] == number:
            run += 1
        if number >= 0:
            depth = buckets[number].local_depth
            span = 1 << (g - depth)
            leaves.extend((depth, number) for _ in range(0, run, span))
        else:
            k = 0
            while k < run:
                at = i + k
                span = (1 << g) if at == 0 else at & -at
                while span > run - k:
                    span >>= 1
                leaves.append((g - (span.bit_length() - 1), 0xFFFFFFFF))
                k += span
        i += run
    return leaves
