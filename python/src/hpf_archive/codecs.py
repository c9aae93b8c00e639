"""Checksums, hashes and codecs from well-kept packages (crc32c, xxhash, lz4, zstandard), with
pure-Python fallbacks for the first three where a package is missing (slow, and said so when an
archive is opened). zstd has no fallback: without `zstandard`, a zstd entry is a clear error."""

from __future__ import annotations

from typing import Any, Protocol

from . import fallback
from ._types import Buffer

MISSING: list[str] = []  # the packages this process runs without, for the warning at open
__all__ = ["crc32c", "xxh64_intdigest", "MISSING", "MissingCodec", "lz4_decompress",
           "zstd_dictionary", "zstd_decompress"]

class _Checksum(Protocol):
    def __call__(self, data: Buffer, value: int = 0) -> int: ...


class _Hash(Protocol):
    def __call__(self, data: Buffer, seed: int = 0) -> int: ...


crc32c: _Checksum
xxh64_intdigest: _Hash

try:
    from crc32c import crc32c
except ImportError:
    MISSING.append("crc32c")
    crc32c = fallback.crc32c

try:
    from xxhash import xxh64_intdigest
except ImportError:
    MISSING.append("xxhash")
    xxh64_intdigest = fallback.xxh64

try:
    import lz4.block

    _lz4: Any = lz4.block
except ImportError:
    MISSING.append("lz4")
    _lz4 = None

try:
    import zstandard

    _zstd: Any = zstandard
except ImportError:
    MISSING.append("zstandard")
    _zstd = None


class MissingCodec(Exception):
    """A codec this process cannot decode (its package is not installed)."""


def lz4_decompress(stored: Buffer, raw_length: int) -> bytes | None:
    """The decoded LZ4 block, or None if it does not decode to exactly raw_length bytes."""
    if _lz4 is None:
        return fallback.lz4_block(stored, raw_length)
    try:
        out: bytes = _lz4.decompress(stored, uncompressed_size=raw_length)
    except Exception:  # lz4 reports malformed input in its own words; callers name the place
        return None
    return out if len(out) == raw_length else None


def _need_zstd() -> None:
    if _zstd is None:
        raise MissingCodec("zstd content needs the zstandard package (pip install zstandard)")


def zstd_dictionary(data: Buffer) -> Any:
    _need_zstd()
    return _zstd.ZstdCompressionDict(data)


def zstd_decompress(stored: Buffer, raw_length: int, dictionary: Any) -> bytes | None:
    """The decoded zstd frame, or None if it does not decode. FORMAT.md "Codecs": one frame that
    declares its content size, which must be the entry's raw length; memory is never sized by
    what a frame claims beyond that (a 38 KB frame may claim 4 GiB of zeros).

    Raises ValueError, saying which rule is broken, for a frame that declares no or another size
    or is followed by more data."""
    _need_zstd()
    try:
        declared: int = _zstd.frame_content_size(stored)
    except _zstd.ZstdError:
        return None
    if declared < 0:
        raise ValueError(f"zstd frame declares no content size (the header says {raw_length} bytes)")
    if declared != raw_length:
        raise ValueError(f"zstd frame declares {declared} bytes, the header {raw_length}")
    try:
        frame = _zstd.ZstdDecompressor(dict_data=dictionary).decompressobj()
        out: bytes = frame.decompress(stored)
    except _zstd.ZstdError:
        return None
    if frame.unused_data:
        raise ValueError(f"{len(frame.unused_data)} bytes after the zstd frame (one frame only)")
    return out


class ByteSource(Protocol):
    def read(self, n: int) -> bytes: ...


def zstd_reader(source: ByteSource, dictionary: Any, read_size: int) -> ByteSource:
    """A stream of the frame read from `source`; its read() raises ZstdStreamError on bad input."""
    _need_zstd()
    return _ZstdReader(_zstd.ZstdDecompressor(dict_data=dictionary).stream_reader(
        source, read_size=read_size))


class ZstdStreamError(Exception):
    """A zstd frame that does not decode."""


class _ZstdReader:
    def __init__(self, reader: Any) -> None:
        self._reader = reader

    def read(self, n: int) -> bytes:
        try:
            data: bytes = self._reader.read(n)
            return data
        except _zstd.ZstdError:
            raise ZstdStreamError()
