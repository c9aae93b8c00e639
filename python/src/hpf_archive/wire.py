"""Little-endian integers, LEB128 varints and the checks every file shares (FORMAT.md
"Conventions", "File header", "File footer")."""

from __future__ import annotations

import struct

from ._types import Buffer

from .codecs import crc32c
from .errors import CorruptArchive, UnsupportedVersion

FILE_MAGIC = b"\x89HPF"
FOOTER_MAGIC = b"HPF!"
HEADER_BYTES = 16
FOOTER_BYTES = 8
VERSIONS = (1, 2, 3, 4, 5, 6, 7)
_U16, _U32, _U64, _I64 = (struct.Struct(f) for f in ("<H", "<I", "<Q", "<q"))


class Cursor:
    """Reads fields from bytes, each read bounded by the bytes there: a short field is corruption
    at its offset, never an IndexError."""

    def __init__(self, data: Buffer, path: str, base: int = 0, start: int = 0,
                 end: int | None = None) -> None:
        self.data = data
        self.path = path
        self.base = base  # offset of data[0] in the file, for messages
        self.pos = start
        self.end = len(data) if end is None else end

    def _take(self, n: int, what: str) -> Buffer:
        if n < 0 or self.pos + n > self.end:
            raise CorruptArchive(self.path, self.base + self.pos, f"{what} runs past its bounds")
        v = self.data[self.pos:self.pos + n]
        self.pos += n
        return v

    def u8(self, what: str = "u8") -> int:
        return self._take(1, what)[0]

    def _number(self, layout: struct.Struct, what: str) -> int:
        v: int = layout.unpack(self._take(layout.size, what))[0]
        return v

    def u16(self, what: str = "u16") -> int:
        return self._number(_U16, what)

    def u32(self, what: str = "u32") -> int:
        return self._number(_U32, what)

    def u64(self, what: str = "u64") -> int:
        return self._number(_U64, what)

    def i64(self, what: str = "i64") -> int:
        return self._number(_I64, what)

    def raw(self, n: int, what: str = "bytes") -> bytes:
        return bytes(self._take(n, what))

    def utf8(self, n: int, what: str = "text") -> str:
        b = self._take(n, what)
        try:
            return bytes(b).decode("utf-8")
        except UnicodeDecodeError:
            raise CorruptArchive(self.path, self.base + self.pos - n, f"{what} is not UTF-8")

    def text(self, n: int, what: str = "text") -> str:
        """Text read from an archive, bytes that are not UTF-8 kept (names.ESCAPES)."""
        return bytes(self._take(n, what)).decode("utf-8", "surrogateescape")

    def varint(self, what: str = "varint") -> int:
        result = 0
        for i in range(10):
            b = self.u8(what)
            result |= (b & 0x7F) << (7 * i)
            if b < 0x80:
                return result
        raise CorruptArchive(self.path, self.base + self.pos, f"{what}: a varint over 10 bytes")

    def zigzag(self, what: str = "zigzag") -> int:
        v = self.varint(what)
        return (v >> 1) ^ -(v & 1)

    def done(self) -> bool:
        return self.pos >= self.end


def check_header(data: Buffer, path: str, kind: bytes) -> int:
    """The 16-byte file header: magic, kind, a known version, reserved 0. Returns the version."""
    if len(data) < HEADER_BYTES:
        raise CorruptArchive(path, 0, f"{len(data)} bytes, shorter than a file header")
    if data[0:4] != FILE_MAGIC:
        raise CorruptArchive(path, 0, "not an hpf file (bad magic)")
    if data[4:8] != kind:
        raise CorruptArchive(path, 4, f"expected a {kind.decode()} file, found {bytes(data[4:8])!r}")
    version: int
    reserved: int
    version, reserved = struct.unpack("<II", data[8:16])
    if version not in VERSIONS:
        raise UnsupportedVersion(path, version)
    if reserved != 0:
        raise CorruptArchive(path, 12, "reserved header field is not 0")
    return version


def check_footer(data: Buffer, path: str) -> None:
    """The 8-byte footer of a whole file: magic and the CRC32C of everything before it."""
    if len(data) < HEADER_BYTES + FOOTER_BYTES:
        raise CorruptArchive(path, 0, "too short for a header and a footer")
    at = len(data) - FOOTER_BYTES
    if data[at:at + 4] != FOOTER_MAGIC:
        raise CorruptArchive(path, at, "footer magic missing (truncated?)")
    (stored,) = struct.unpack("<I", data[at + 4:at + 8])
    if crc32c(data[:at]) != stored:
        raise CorruptArchive(path, at, "file checksum mismatch")
