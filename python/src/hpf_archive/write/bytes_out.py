"""Little-endian fields, LEB128 varints and file framing as a writer puts them down (FORMAT.md
"Conventions", "File header", "File footer"). Internal to the writer."""

from __future__ import annotations

import struct

from ..codecs import crc32c
from ..wire import FILE_MAGIC, FOOTER_MAGIC

VERSION = 7  # the format version every file this writer makes carries
_U16, _U32, _U64, _I64 = struct.Struct("<H"), struct.Struct("<I"), struct.Struct("<Q"), struct.Struct("<q")
MASK64 = (1 << 64) - 1


class Out(bytearray):
    """A growing byte string with the format's field writers; each returns self to chain."""

    def u8(self, v: int) -> Out:
        self.append(v)
        return self

    def u16(self, v: int) -> Out:
        self += _U16.pack(v)
        return self

    def u32(self, v: int) -> Out:
        self += _U32.pack(v & 0xFFFFFFFF)
        return self

    def u64(self, v: int) -> Out:
        self += _U64.pack(v & MASK64)
        return self

    def i64(self, v: int) -> Out:
        self += _I64.pack(v)
        return self

    def varint(self, v: int) -> Out:
        while v >= 0x80:
            self.append((v & 0x7F) | 0x80)
            v >>= 7
        self.append(v)
        return self

    def zigzag(self, v: int) -> Out:
        return self.varint(((v << 1) ^ (v >> 63)) & MASK64)

    def text16(self, text: str) -> Out:
        """u16 length and the UTF-8 bytes (a manifest's operation, an attribute key)."""
        b = text.encode("utf-8")
        self.u16(len(b))
        self += b
        return self

    def crc_of(self, start: int) -> Out:
        """Appends the CRC32C of the bytes from `start` on."""
        return self.u32(crc32c(bytes(self[start:])))


def file_header(kind: bytes) -> Out:
    """The 16 bytes every file starts with: magic, kind, version, reserved."""
    out = Out(FILE_MAGIC)
    out += kind
    return out.u32(VERSION).u32(0)


def footer(crc: int) -> bytes:
    return FOOTER_MAGIC + _U32.pack(crc)


def framed(body: Out) -> bytes:
    """A whole small file (manifest, dictionary): its bytes then the footer over all of them."""
    return bytes(body) + footer(crc32c(bytes(body)))


def sorted_attributes(attributes: dict[str, str] | None,
                      escaped: bool = False) -> list[tuple[bytes, bytes]]:
    """Attributes as UTF-8, in unsigned byte order of their keys (FORMAT.md "Entry"); `escaped`:
    read from an archive, bytes that are not UTF-8 given back as they were (names.ESCAPES)."""
    if not attributes:
        return []
    errors = "surrogateescape" if escaped else "strict"
    pairs = [(k.encode("utf-8", errors), v.encode("utf-8", errors)) for k, v in attributes.items()]
    pairs.sort(key=lambda kv: kv[0])
    return pairs
