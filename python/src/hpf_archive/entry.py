"""Entries in part files: the header, its checks, and the content decoded and checked against
its CRC32C (FORMAT.md "Entry", "Codecs", "Limits")."""

import struct

import lz4.block
import zstandard

from .catalog import EntryInfo
from .errors import CorruptArchive
from .wire import Cursor, crc32c

ENTRY_MAGIC = 0x45465048
MIN_HEADER = 52
MAX_HEADER = 1 << 20
MAX_LZ4_RAW = 64 << 20
CODEC_NONE, CODEC_LZ4, CODEC_ZSTD = 0, 1, 2


def read_checked(storage, part_name, committed, info, dictionaries):
    """The content of the entry a catalog row places in a part: the header must name the row's
    name (else the archive is corrupt) and agree with its lengths; the content must decode to
    its raw length and match its CRC32C. Whole in memory (streams come with large entries)."""
    found = read_at(storage, part_name, committed, info.part_id, info.offset, info.entry_length,
                    info.name, dictionaries)
    if found is None:
        raise CorruptArchive(storage.describe(part_name), info.offset,
                             f"the catalog places '{info.name}' here, the entry names another")
    return found[1]


def read_at(storage, part_name, committed, part_id, off, length, name, dictionaries,
            content=True):
    """(EntryInfo from the header, checked content or None) of the entry at a place an index
    gives, or None if an intact entry of another name is there (a 64-bit hash collision)."""
    path = storage.describe(part_name)
    if off < 16 or length < MIN_HEADER + 4 or off + length > committed:
        raise CorruptArchive(path, off, f"an entry of {length} bytes outside the committed part")
    # The header first (bounded by the format), the content only when asked for: a stat or a
    # stream of a large entry never copies its content.
    magic, h = struct.unpack("<II", storage.read(part_name, off, 8))
    if magic != ENTRY_MAGIC:
        raise CorruptArchive(path, off, "no entry here (bad magic)")
    if h < MIN_HEADER or h > MAX_HEADER or h + 4 > length:
        raise CorruptArchive(path, off, f"entry header length {h} out of bounds")
    data = storage.read(part_name, off, length if content else h)
    (stored_crc,) = struct.unpack_from("<I", data, h - 4)
    if crc32c(data[:h - 4]) != stored_crc:
        raise CorruptArchive(path, off, "entry header checksum mismatch")
    codec, flags, name_length, dictionary = struct.unpack_from("<BBHI", data, 8)
    raw_length, stored_length, mtime = struct.unpack_from("<QQq", data, 16)
    mode, attribute_count = struct.unpack_from("<IH", data, 40)
    if flags != 0:
        raise CorruptArchive(path, off + 9, "reserved entry flags are not 0")
    c = Cursor(data, path, base=off, start=48, end=h - 4)
    stored_name = c.utf8(name_length, "entry name")
    attributes = {}
    for _ in range(attribute_count):
        key = c.utf8(c.u16("attribute key length"), "attribute key")
        attributes[key] = c.utf8(c.u32("attribute value length"), "attribute value")
    if not c.done():
        raise CorruptArchive(path, off, "bytes left over between the attributes and the header CRC")
    if stored_name != name:
        return None
    if h + stored_length + 4 != length:
        raise CorruptArchive(path, off, f"entry '{name}' is not {length} bytes as indexed")
    info = EntryInfo(name, False, raw_length, stored_length, codec, dictionary, mtime, mode,
                     part_id, off, length, attributes)
    if not content:
        return info, None
    stored = data[h:h + stored_length]
    out = decode(path, off + h, name, codec, stored, raw_length, dictionary, dictionaries)
    (content_crc,) = struct.unpack_from("<I", data, h + stored_length)
    if crc32c(out) != content_crc:
        raise CorruptArchive(path, off + h, f"entry '{name}': content checksum mismatch")
    return info, out


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
