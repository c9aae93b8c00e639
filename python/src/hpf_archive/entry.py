"""Entries in part files: the header, its checks, and the content decoded and checked against
its CRC32C (FORMAT.md "Entry", "Codecs", "Limits")."""

import struct

import lz4.block
import zstandard

from .errors import CorruptArchive
from .wire import crc32c

ENTRY_MAGIC = 0x45465048
MIN_HEADER = 52
MAX_HEADER = 1 << 20
MAX_LZ4_RAW = 64 << 20
CODEC_NONE, CODEC_LZ4, CODEC_ZSTD = 0, 1, 2


def read_checked(storage, part_name, committed, info, dictionaries):
    """The content of the entry a catalog row places in a part: the header must name the row's
    name and agree with its lengths; the content must decode to its raw length and match its
    CRC32C. Whole in memory (the streaming reader comes with large entries)."""
    path = storage.describe(part_name)
    off, length = info.offset, info.entry_length
    if off < 16 or length < MIN_HEADER + 4 or off + length > committed:
        raise CorruptArchive(path, off, f"entry '{info.name}' lies outside the committed part")
    data = storage.read(part_name, off, length)
    magic, h = struct.unpack_from("<II", data, 0)
    if magic != ENTRY_MAGIC:
        raise CorruptArchive(path, off, "no entry here (bad magic)")
    if h < MIN_HEADER or h > MAX_HEADER or h + 4 > length:
        raise CorruptArchive(path, off, f"entry header length {h} out of bounds")
    (stored_crc,) = struct.unpack_from("<I", data, h - 4)
    if crc32c(data[:h - 4]) != stored_crc:
        raise CorruptArchive(path, off, "entry header checksum mismatch")
    codec, flags, name_length, dictionary = struct.unpack_from("<BBHI", data, 8)
    raw_length, stored_length = struct.unpack_from("<QQ", data, 16)
    if flags != 0:
        raise CorruptArchive(path, off + 9, "reserved entry flags are not 0")
    name = bytes(data[48:48 + name_length]).decode("utf-8", errors="strict")
    if name != info.name:
        raise CorruptArchive(path, off, f"the catalog places '{info.name}' here, the entry is '{name}'")
    if h + stored_length + 4 != length:
        raise CorruptArchive(path, off, f"entry '{name}' is not {length} bytes as indexed")
    stored = data[h:h + stored_length]
    content = decode(path, off + h, name, codec, stored, raw_length, dictionary, dictionaries)
    (content_crc,) = struct.unpack_from("<I", data, h + stored_length)
    if crc32c(content) != content_crc:
        raise CorruptArchive(path, off + h, f"entry '{name}': content checksum mismatch")
    return content


def decode(path, at, name, codec, stored, raw_length, dictionary, dictionaries):
    if codec == CODEC_NONE:
        if raw_length != len(stored):
            raise CorruptArchive(path, at, f"entry '{name}': raw and stored lengths differ")
        return bytes(stored)
    if codec == CODEC_LZ4:
        if raw_length > MAX_LZ4_RAW:
            raise CorruptArchive(path, at, f"entry '{name}': lz4 content over 64 MiB")
        try:
            out = lz4.block.decompress(bytes(stored), uncompressed_size=raw_length)
        except Exception:
            raise CorruptArchive(path, at, f"entry '{name}': content does not decompress")
    elif codec == CODEC_ZSTD:
        d = None
        if dictionary:
            d = dictionaries(dictionary)
            if d is None:
                raise CorruptArchive(path, at, f"entry '{name}' names dictionary {dictionary}, not listed")
        dctx = zstandard.ZstdDecompressor(dict_data=d)
        try:
            # Bounded by the raw length the header claims; a frame decoding past it is corrupt.
            out = dctx.decompress(bytes(stored), max_output_size=raw_length)
        except zstandard.ZstdError:
            raise CorruptArchive(path, at, f"entry '{name}': content does not decompress")
    else:
        raise CorruptArchive(path, at, f"entry '{name}': unknown codec {codec}")
    if len(out) != raw_length:
        raise CorruptArchive(path, at, f"entry '{name}': decodes to {len(out)} bytes, not {raw_length}")
    return out
