"""Builds the minimal perfect hash of a bucket (FORMAT.md "Perfect hash"): PTHash with skewed
pilot buckets, a table of n/0.99 positions and a remap table. The search is the one hpf's Java
writer does (largest pilot bucket first, smallest pilot that fits), so both store the same bytes
for the same keys. Internal to the writer."""

from __future__ import annotations

import math
from typing import Any

from .bytes_out import MASK64, Out

GOLDEN, GOLDEN_2 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F
DENSE_THRESHOLD = 0x9999999999999999
MAX_PILOT = 1 << 26
ENCODING_COMPACT, ENCODING_DICTIONARY = 1, 2
PILOT_CACHE = 4096

_np: Any
try:  # an optional speed-up of the pilot search; the result is the same without it
    import numpy as _np
except ImportError:  # pragma: no cover - exercised where numpy is absent
    _np = None


class Unbuildable(Exception):
    """Two keys are equal, or no pilot was found: the caller tries another seed."""


def fmix64(k: int) -> int:
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & MASK64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & MASK64
    return k ^ (k >> 33)


_PILOT_HASHES = [fmix64(p ^ GOLDEN) for p in range(PILOT_CACHE)]


def _bucket_of(key: int, m: int, dense: int) -> int:
    spread = fmix64(key ^ GOLDEN_2)
    if fmix64(key) < DENSE_THRESHOLD:
        return (spread * dense) >> 64
    return dense + ((spread * (m - dense)) >> 64)


def bits_for(v: int) -> int:
    return v.bit_length() if v > 0 else 0


def pack(values: list[int], width: int) -> list[int]:
    """Values of `width` bits into u64 words, value i at bits [i*w, (i+1)*w)."""
    count = (len(values) * width + 63) // 64
    if width == 0:
        return [0] * count
    stream = 0
    for i, v in enumerate(values):
        stream |= v << (i * width)
    return [(stream >> (64 * i)) & MASK64 for i in range(count)]


def build(keys: list[int]) -> tuple[bytes, list[int]]:
    """The encoded function over distinct 64-bit keys, and the slot of each key."""
    n = len(keys)
    if n == 0:
        return bytes(Out().u32(0).u32(0).u32(0).u8(ENCODING_COMPACT).u8(0).u8(0).u8(0)
                     .u32(0).u32(0).u32(0)), []
    m = max(1, math.ceil(n / (2.0 if n < 256 else 5.0)))
    dense = m * 3 // 10
    table = n if n < 64 else min(0x7FFFFFFE, math.ceil(n / 0.99))
    members: list[list[int]] = [[] for _ in range(m)]
    for k in keys:
        members[_bucket_of(k, m, dense)].append(k)
    for group in members:
        if len(group) > 1 and len(set(group)) != len(group):
            raise Unbuildable("two equal keys")
    order = sorted(range(m), key=lambda b: -len(members[b]))
    pilots = [0] * m
    position: dict[int, int] = {}
    search = _NumpySearch(table) if _np is not None else _Search(table)
    for b in order:
        ks = members[b]
        if not ks:
            break
        pilots[b] = search.pilot(ks, position)
    taken = search.taken_bytes()
    remap = _remap(taken, n, table)
    slots = [p if p < n else remap[p - n] for p in (position[k] for k in keys)]
    return _encode(n, table, m, pilots, remap), slots


class _Search:
    """The pilot search of PTHash: for a bucket's keys, the smallest pilot that puts every key on
    a free position, no two on the same one; marks them taken."""

    def __init__(self, table: int) -> None:
        self.table = table
        self.taken = bytearray(table)

    def taken_bytes(self) -> bytearray:
        return self.taken

    def pilot(self, ks: list[int], position: dict[int, int]) -> int:
        table, taken = self.table, self.taken
        m1, m2, mask = 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, MASK64
        for pilot in range(MAX_PILOT):
            ph = _PILOT_HASHES[pilot] if pilot < PILOT_CACHE else fmix64(pilot ^ GOLDEN)
            positions: list[int] = []
            for k in ks:
                x = k ^ ph  # fmix64 written out: this loop is most of a commit's index time
                x ^= x >> 33
                x = (x * m1) & mask
                x ^= x >> 33
                x = (x * m2) & mask
                pos = ((x ^ (x >> 33)) * table) >> 64
                if taken[pos] or pos in positions:
                    break
                positions.append(pos)
            else:
                for k, pos in zip(ks, positions):
                    taken[pos] = 1
                    position[k] = pos
                return pilot
        raise Unbuildable(f"no pilot found for a bucket of {len(ks)} keys")


class _NumpySearch(_Search):
    """The same search where numpy is installed, a block of pilots at a time: every key's position
    under each pilot of the block at once, the first pilot whose positions are free and distinct
    taken, which is the pilot the search above finds."""

    BLOCK = 256

    def __init__(self, table: int) -> None:
        super().__init__(table)
        assert _np is not None
        self.np = _np
        self.free = _np.ones(table, dtype=bool)
        self.hashes = _np.array(_PILOT_HASHES, dtype=_np.uint64)

    def taken_bytes(self) -> bytearray:
        return bytearray((~self.free).astype(self.np.uint8).tobytes())

    def pilot(self, ks: list[int], position: dict[int, int]) -> int:
        np = self.np
        keys = np.array(ks, dtype=np.uint64)
        for start in range(0, PILOT_CACHE, self.BLOCK):
            x = keys[None, :] ^ self.hashes[start:start + self.BLOCK, None]
            x ^= x >> np.uint64(33)
            x *= np.uint64(0xFF51AFD7ED558CCD)
            x ^= x >> np.uint64(33)
            x *= np.uint64(0xC4CEB9FE1A85EC53)
            x ^= x >> np.uint64(33)
            t = np.uint64(self.table)  # the high word of x * table, table < 2^32: no overflow
            pos = ((x >> np.uint64(32)) * t + (((x & np.uint64(0xFFFFFFFF)) * t) >> np.uint64(32))
                   ) >> np.uint64(32)
            pos = pos.astype(np.int64)
            ok = self.free[pos].all(axis=1)
            if len(ks) > 1:
                ordered = np.sort(pos, axis=1)
                ok &= (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)
            hits = np.flatnonzero(ok)
            if hits.size:
                row = int(hits[0])
                chosen = pos[row]
                self.free[chosen] = False
                for k, p in zip(ks, chosen.tolist()):
                    position[k] = p
                return start + row
        return self._beyond_cache(ks, position)

    def _beyond_cache(self, ks: list[int], position: dict[int, int]) -> int:
        """Pilots past the cached ones (never needed in practice): the plain search."""
        self.taken = self.taken_bytes()
        pilot = super().pilot(ks, position)
        self.free = self.np.frombuffer(bytes(self.taken), dtype=self.np.uint8) == 0
        return pilot


def _remap(taken: bytearray, n: int, table: int) -> list[int]:
    remap = [0] * (table - n)
    free = 0
    for pos in range(n, table):
        if taken[pos]:
            while taken[free]:
                free += 1
            remap[pos - n] = free
            free += 1
    return remap


def _encode(n: int, table: int, m: int, pilots: list[int], remap: list[int]) -> bytes:
    compact_bits = bits_for(max(pilots))
    distinct = sorted(set(pilots))
    dictionary_bits = bits_for(len(distinct) - 1)
    remap_bits = bits_for(n - 1)
    out = Out().u32(n).u32(table).u32(m)
    if m * compact_bits <= m * dictionary_bits + 32 * len(distinct):
        out.u8(ENCODING_COMPACT).u8(compact_bits).u8(remap_bits).u8(0).u32(0)
        words = pack(pilots, compact_bits)
    else:
        out.u8(ENCODING_DICTIONARY).u8(dictionary_bits).u8(remap_bits).u8(0).u32(len(distinct))
        for v in distinct:
            out.u32(v)
        index = {v: i for i, v in enumerate(distinct)}
        words = pack([index[p] for p in pilots], dictionary_bits)
    out.u32(len(words))
    for w in words:
        out.u64(w)
    remap_words = pack(remap, remap_bits)
    out.u32(len(remap_words))
    for w in remap_words:
        out.u64(w)
    return bytes(out)
