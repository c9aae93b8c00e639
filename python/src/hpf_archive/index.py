"""A segment's hash index: the extendible-hashing directory (in the manifest), bucket files
with their minimal perfect hash (PTHash) and 32-byte records (FORMAT.md "Bucket file",
"Index record", "Perfect hash"). Warm, a lookup reads one record."""

from __future__ import annotations

import collections
import struct
import threading
from typing import Dict, Literal, Sequence, Tuple, Union

from . import files
from ._types import Buffer, Reads
from .codecs import crc32c, xxh64_intdigest
from .errors import CorruptArchive
from .files import Section
from .manifest import NO_BUCKET, Segment
from .wire import Cursor, check_header

M64 = (1 << 64) - 1
RECORD_BYTES = 32
TOMBSTONE_PART = 0xFFFFFFFF
DELETED: Literal["deleted"] = "deleted"  # what find returns for a tombstone
_RECORD = struct.Struct("<QQQII")

Place = Tuple[int, int, int]
"""(part id, offset, entry length) of an entry, as its index record gives it."""
Found = Union[Place, Literal["deleted"], None]
SlotTable = Dict[int, Union[Place, Literal["deleted"]]]
Meta = Tuple["PerfectHash", int, bytes, Section, int]
"""A bucket's perfect hash, seed, slot fingerprints, section and where its records start."""


def packed(words: Sequence[int], i: int, width: int) -> int:
    """Value i of `width` bits in the little-endian bit stream of the u64 words."""
    if width == 0:
        return 0
    bit = i * width
    w, shift = divmod(bit, 64)
    v: int = words[w] >> shift
    if shift + width > 64:
        v |= words[w + 1] << (64 - shift)
    return v & ((1 << width) - 1)


class PerfectHash:
    def __init__(self, c: Cursor, n: int) -> None:
        start = c.pos
        self.path = c.path
        self.n, self.table, self.m = c.u32("n"), c.u32("T"), c.u32("m")
        self.encoding, self.w, self.r, reserved = c.u8(), c.u8(), c.u8(), c.u8()
        bad = None
        if self.n != n:
            bad = f"perfect hash of {self.n} keys in a bucket of {n}"
        elif n == 0 and (self.table or self.m or self.encoding != 1 or self.w or self.r):
            bad = "an empty bucket's perfect hash is not the empty one"
        elif n and not (1 <= self.m <= n and n <= self.table <= n + -(-n // 99) + 1):
            bad = "perfect hash sizes out of bounds"
        elif self.w > 32 or self.r > 32 or reserved or self.encoding not in (1, 2):
            bad = "perfect hash fields out of bounds"
        if bad:
            raise CorruptArchive(c.path, c.base + start, bad)
        d = c.u32("dictionary size")
        if d > max(self.m, 0) or (self.encoding == 1 and d):
            raise CorruptArchive(c.path, c.base + c.pos - 4, f"pilot dictionary of {d} values")
        self.dictionary: tuple[int, ...] = struct.unpack(f"<{d}I", c.raw(4 * d, "pilot dictionary"))
        self.pilots = self._words(c, -(-self.m * self.w // 64), "pilot words")
        self.remap = self._words(c, -(-(self.table - self.n) * self.r // 64), "remap words")
        self.dense = self.m * 3 // 10
        for i in range(self.table - self.n):
            if packed(self.remap, i, self.r) >= max(n, 1):
                raise CorruptArchive(c.path, c.base + start, "a remap value out of range")

    @staticmethod
    def _words(c: Cursor, expected: int, what: str) -> tuple[int, ...]:
        count = c.u32(what)
        if count != expected:
            raise CorruptArchive(c.path, c.base + c.pos - 4, f"{what}: {count}, expected {expected}")
        words: tuple[int, ...] = struct.unpack(f"<{count}Q", c.raw(8 * count, what))
        return words

    def slot(self, key: int) -> int:
        # fmix64 written out four times: this runs on every lookup, and a call costs more than
        # the arithmetic in CPython.
        x = key ^ 0xC2B2AE3D27D4EB4F
        x ^= x >> 33
        x = (x * 0xFF51AFD7ED558CCD) & M64
        x ^= x >> 33
        x = (x * 0xC4CEB9FE1A85EC53) & M64
        spread = x ^ (x >> 33)
        x = key ^ (key >> 33)
        x = (x * 0xFF51AFD7ED558CCD) & M64
        x ^= x >> 33
        x = (x * 0xC4CEB9FE1A85EC53) & M64
        dense = self.dense
        if x ^ (x >> 33) < 0x9999999999999999:
            bucket = (spread * dense) >> 64
        else:
            bucket = dense + ((spread * (self.m - dense)) >> 64)
        v = packed(self.pilots, bucket, self.w)
        if self.encoding == 2:
            if v >= len(self.dictionary):
                raise CorruptArchive(self.path, 0, f"perfect hash: pilot index {v} is not in "
                                     f"its dictionary of {len(self.dictionary)}")
            v = self.dictionary[v]
        x = v ^ 0x9E3779B97F4A7C15
        x ^= x >> 33
        x = (x * 0xFF51AFD7ED558CCD) & M64
        x ^= x >> 33
        x = (x * 0xC4CEB9FE1A85EC53) & M64
        x = key ^ x ^ (x >> 33)
        x ^= x >> 33
        x = (x * 0xFF51AFD7ED558CCD) & M64
        x ^= x >> 33
        x = (x * 0xC4CEB9FE1A85EC53) & M64
        pos = ((x ^ (x >> 33)) * self.table) >> 64
        return pos if pos < self.n else packed(self.remap, pos - self.n, self.r)


class SlotTables:
    """For buckets looked up often, a dict from a name's full 64-bit hash to its record's place
    (or DELETED), built from the bucket's records (each record's CRC32C checked as it is read),
    so that a lookup is a dict probe instead of a perfect-hash evaluation (microseconds of
    big-integer arithmetic in CPython) and a record read. About 150 bytes a key. Shared by an
    archive's segments; bounded by the keys held, oldest table dropped first. A bucket whose
    records do not all check out, or hold a hash twice, keeps the perfect-hash path, which names
    the damaged record when a lookup reaches it."""

    HOT_AFTER = 16  # lookups in a bucket before its table is built: one-off lookups stay cheap
    PERFECT_HASH_ONLY: SlotTable = {}  # the table of a bucket that keeps the perfect-hash path

    def __init__(self, max_keys: int = 1 << 18) -> None:
        self.max_keys = max_keys
        self._tables: collections.OrderedDict[int, SlotTable] = collections.OrderedDict()
        self._keys = 0
        self._hits: collections.Counter[int] = collections.Counter()
        self._lock = threading.Lock()

    def get(self, key: int) -> SlotTable | None:
        return self._tables.get(key)

    def wanted(self, key: int) -> bool:
        """Counts a lookup in a bucket without a table; True when it should get one."""
        self._hits[key] += 1
        return self._hits[key] == self.HOT_AFTER

    def build(self, key: int, records: Buffer) -> None:
        table: SlotTable = {}
        for i in range(len(records) // RECORD_BYTES):
            rec = records[RECORD_BYTES * i:RECORD_BYTES * (i + 1)]
            fingerprint, offset, length, part, crc = _RECORD.unpack(rec)
            if crc32c(rec[:28]) != crc:
                table = self.PERFECT_HASH_ONLY
                break
            table[fingerprint] = DELETED if part == TOMBSTONE_PART else (part, offset, length)
        if table is not self.PERFECT_HASH_ONLY and len(table) * RECORD_BYTES != len(records):
            table = self.PERFECT_HASH_ONLY  # a hash held twice: only the perfect hash tells them apart
        with self._lock:
            self._tables[key] = table
            self._keys += len(table)
            while self._keys > self.max_keys and len(self._tables) > 1:
                old_key, old = self._tables.popitem(last=False)
                self._keys -= len(old)
                self._hits.pop(old_key, None)


class SegmentIndex:
    """Finds a name's record in one segment: directory pointer, bucket meta (loaded once), the
    slot (from the bucket's perfect hash, or its slot table when the bucket is hot), one record
    read."""

    def __init__(self, storage: Reads, segment: Segment, slot_tables: SlotTables) -> None:
        self.storage = storage
        self.segment = segment
        g = segment.global_depth
        self.pointers: list[int] = []
        for depth, bucket in segment.leaves:
            self.pointers.extend([bucket] * (1 << (g - depth)))
        self._metas: dict[int, Meta] = {}
        self._tables = slot_tables
        self._table_base = segment.segment_id << 32
        self._lock = threading.Lock()

    def find(self, name_utf8: bytes, h: int) -> Found:
        """(part id, offset, entry length) of the name's record, DELETED for a tombstone, or
        None if this segment does not hold the name."""
        g = self.segment.global_depth
        b = self.pointers[h >> (64 - g)] if g else self.pointers[0]
        if b == NO_BUCKET:
            return None
        meta = self._metas.get(b) or self._meta(b)
        if meta is None:
            return None  # an empty bucket
        ph, seed, fingerprints, section, records_at = meta
        key = self._table_base | b
        table = self._tables.get(key)
        if table:
            return table.get(h)
        s = ph.slot(xxh64_intdigest(name_utf8, seed))
        if table is None and self._tables.wanted(key):
            n = len(fingerprints)
            self._tables.build(key, section.read(self.storage, records_at, RECORD_BYTES * n))
        if fingerprints[s] != h & 0xFF:
            return None
        at = records_at + RECORD_BYTES * s
        rec = section.read(self.storage, at, RECORD_BYTES)
        fingerprint, offset, length, part, crc = _RECORD.unpack(rec)
        if crc32c(rec[:28]) != crc:
            raise CorruptArchive(section.describe(self.storage), at,
                                 "index record checksum mismatch")
        if fingerprint != h:
            return None
        return DELETED if part == TOMBSTONE_PART else (part, offset, length)

    def check_buckets(self) -> None:
        """Loads and checks every bucket's meta, empty ones included (verify)."""
        for b in range(len(self.segment.buckets)):
            self._meta(b, lookup=False)

    def _meta(self, b: int, lookup: bool = True) -> Meta | None:
        cached = self._metas.get(b)
        if cached is not None:
            return cached
        bucket = self.segment.buckets[b]
        if bucket.key_count == 0 and lookup:
            return None  # a lookup in an empty bucket finds nothing without reading it
        section = files.bucket_section(self.segment, bucket)
        path = section.describe(self.storage)
        n = bucket.key_count
        if bucket.meta_length < 40 + 28 + n or bucket.file_length < bucket.meta_length + 32 * n + 8:
            raise CorruptArchive(path, 0, "bucket lengths in the manifest out of bounds")
        data = section.read(self.storage, 0, bucket.meta_length)
        check_header(data, path, b"BUCK")
        c = Cursor(data, path, start=16, end=bucket.meta_length - 4)
        claimed, record_size = c.u32("key count"), c.u32("record size")
        if claimed != n or record_size != RECORD_BYTES:
            raise CorruptArchive(path, 16, f"bucket has {claimed} records of {record_size} bytes, "
                                           f"manifest expects {n} of {RECORD_BYTES}")
        seed = c.u64("seed")
        p = c.u32("perfect hash length")
        end = c.pos + p
        ph = PerfectHash(Cursor(data, path, start=c.pos, end=end), n)
        c.pos = end
        fingerprints = c.raw(n, "slot fingerprints")
        (meta_crc,) = struct.unpack_from("<I", data, bucket.meta_length - 4)
        if crc32c(data[16:bucket.meta_length - 4]) != meta_crc or not c.done():
            raise CorruptArchive(path, 16, "bucket meta checksum mismatch")
        meta: Meta = (ph, seed, fingerprints, section, bucket.meta_length)
        with self._lock:
            self._metas[b] = meta
        return meta
