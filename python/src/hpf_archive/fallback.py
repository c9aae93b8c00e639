"""Pure-Python CRC32C, XXH64 and LZ4 block decoding, used only where the package that does each
in C is not installed. Slow (a few MB/s), but exact: tests compare them with the packages."""

from __future__ import annotations

from ._types import Buffer

M64 = (1 << 64) - 1
_P1, _P2, _P3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
_P4, _P5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5


def _crc32c_table() -> list[int]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data: Buffer, value: int = 0) -> int:
    """CRC-32C (Castagnoli) of data, continuing from value as the crc32c package does."""
    c = value ^ 0xFFFFFFFF
    table = _CRC_TABLE
    for b in bytes(data):
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & M64


def _round(acc: int, lane: int) -> int:
    acc = (acc + lane * _P2) & M64
    return (_rotl(acc, 31) * _P1) & M64


def _merge(acc: int, v: int) -> int:
    acc ^= _round(0, v)
    return (acc * _P1 + _P4) & M64


def xxh64(data: Buffer, seed: int = 0) -> int:
    """XXH64 of data with seed, as an unsigned integer (xxhash.xxh64_intdigest)."""
    data = bytes(data)
    n = len(data)
    i = 0
    if n >= 32:
        v = [(seed + _P1 + _P2) & M64, (seed + _P2) & M64, seed, (seed - _P1) & M64]
        while i + 32 <= n:
            for j in range(4):
                v[j] = _round(v[j], int.from_bytes(data[i + 8 * j:i + 8 * j + 8], "little"))
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & M64
        for lane in v:
            h = _merge(h, lane)
    else:
        h = (seed + _P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        h ^= _round(0, int.from_bytes(data[i:i + 8], "little"))
        h = (_rotl(h, 27) * _P1 + _P4) & M64
        i += 8
    if i + 4 <= n:
        h ^= (int.from_bytes(data[i:i + 4], "little") * _P1) & M64
        h = (_rotl(h, 23) * _P2 + _P3) & M64
        i += 4
    while i < n:
        h ^= (data[i] * _P5) & M64
        h = (_rotl(h, 11) * _P1) & M64
        i += 1
    h ^= h >> 33
    h = (h * _P2) & M64
    h ^= h >> 29
    h = (h * _P3) & M64
    return h ^ (h >> 32)


def _length(src: bytes, i: int, nibble: int) -> tuple[int | None, int]:
    """A literal or match length: the token's nibble, extended by bytes while they are 255 when
    the nibble is 15. (length, next position), or (None, i) if the block ends first."""
    if nibble != 15:
        return nibble, i
    while True:
        if i >= len(src):
            return None, i
        b = src[i]
        i += 1
        nibble += b
        if b != 255:
            return nibble, i


def lz4_block(src: Buffer, raw_length: int) -> bytes | None:
    """The decoded LZ4 block, or None if it is malformed or does not decode to raw_length."""
    src = bytes(src)
    out = bytearray()
    i, n = 0, len(src)
    while i < n:
        token = src[i]
        i += 1
        literals, i = _length(src, i, token >> 4)
        if literals is None:
            return None
        if i + literals > n or len(out) + literals > raw_length:
            return None
        out += src[i:i + literals]
        i += literals
        if i == n:
            break  # the last sequence has literals only
        if i + 2 > n:
            return None
        distance = src[i] | src[i + 1] << 8
        i += 2
        length, i = _length(src, i, token & 15)
        if length is None:
            return None
        length += 4
        if distance == 0 or distance > len(out) or len(out) + length > raw_length:
            return None
        start = len(out) - distance
        if length <= distance:
            out += out[start:start + length]
        else:  # an overlapping match repeats the bytes it is copying
            for k in range(length):
                out.append(out[start + k])
    return bytes(out) if len(out) == raw_length else None
