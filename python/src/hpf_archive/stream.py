"""Entries as seekable streams in bounded memory, whatever their size and codec, that hand out
only bytes that passed a checksum.

Chunked content (format version 7, FORMAT.md "Chunked content") is read a chunk at a time, each
checked against its own CRC32C before any of its bytes is handed out: a seek reads only the
chunks from its target on, and a stream read from its start to its end also checks the entry's
CRC32C of the whole. Content in one piece of more than 1 MiB (versions 1 to 6) is checked whole,
read to its end, each time a stream of it opens, before the first byte is handed out (damage that
comes after an earlier read is found); then it is read again from its start (or, stored raw, from
the offset asked for). A stream's position moves only by bytes handed out: after a failed read
(a transient error of the storage) the next read starts again at the position."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from . import codecs
from ._types import Reads
from .catalog import EntryInfo
from .chunks import Chunks
from .codecs import ByteSource
from .entry import check_codec
from .errors import CorruptArchive

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

_T = TypeVar("_T")

CHUNK = 1 << 20


class CheckedReader(io.BufferedReader):
    """A buffered stream that hands out nothing of a read that fails: io.BufferedReader drops the
    bytes it took from its buffer when the raw read after them raises, and its position moves on
    past them; here a failed read puts the position back where the read began."""

    def _undo_on_error(self, read: Callable[..., _T], *args: Any) -> _T:
        at = self.tell()
        try:
            return read(*args)
        except BaseException:
            try:
                self.seek(at)  # empties the buffer; the raw stream moves to `at`
            except Exception:  # noqa: BLE001 - the read's own error is the one to tell
                pass
            raise

    def read(self, size: int | None = -1) -> bytes:
        return self._undo_on_error(super().read, size)

    def read1(self, size: int = -1) -> bytes:
        return self._undo_on_error(super().read1, size)

    def readinto(self, b: WriteableBuffer) -> int:
        return self._undo_on_error(super().readinto, b)

    def readinto1(self, b: WriteableBuffer) -> int:
        return self._undo_on_error(super().readinto1, b)

    def readline(self, size: int | None = -1) -> bytes:
        return self._undo_on_error(super().readline, size)

    def peek(self, size: int = 0) -> bytes:
        return self._undo_on_error(super().peek, size)


class _StoredBytes(io.RawIOBase):
    """The stored bytes of an entry, read from its part a chunk at a time."""

    def __init__(self, storage: Reads, part: str, offset: int, length: int, pos: int = 0) -> None:
        self.storage, self.part, self.offset, self.length, self.pos = storage, part, offset, length, pos

    def readable(self) -> bool:
        return True

    def readinto(self, b: WriteableBuffer) -> int:
        view = memoryview(b)
        n = min(len(view), self.length - self.pos)
        if n <= 0:
            return 0
        view[:n] = self.storage.read(self.part, self.offset + self.pos, n)
        self.pos += n
        return n


class _Seekable(io.RawIOBase):
    """Position bookkeeping shared by both streams: subclasses give _read_at(n) and _move(pos)."""

    def __init__(self, raw_length: int) -> None:
        self._length = raw_length
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        target = {io.SEEK_SET: offset, io.SEEK_CUR: self._pos + offset,
                  io.SEEK_END: self._length + offset}[whence]
        if target < 0:
            raise ValueError(f"negative position {target}")
        target = min(target, self._length)
        if target != self._pos:
            self._move(target)
            self._pos = target
        return self._pos

    def readinto(self, b: WriteableBuffer) -> int:
        view = memoryview(b)
        if self._pos >= self._length:
            self._at_end()
            return 0
        data = self._read_at(min(len(view), self._length - self._pos))
        n = len(data)
        view[:n] = data
        self._pos += n
        if self._pos == self._length:
            self._at_end()
        return n

    def _read_at(self, n: int) -> bytes:
        raise NotImplementedError

    def _move(self, pos: int) -> None:
        raise NotImplementedError

    def _at_end(self) -> None:
        pass

    def check_to_end(self) -> None:
        """Reads the content from its start to its end: every checksum of it checked (verify)."""
        self.seek(0)
        while self.read(CHUNK):
            pass


class ChunkStream(_Seekable):
    """Chunked content: the chunk holding the position, decoded and checked, is kept."""

    def __init__(self, chunks: Chunks, read_crc: Callable[[], int]) -> None:
        super().__init__(chunks.raw_length)
        self._chunks = chunks
        self._read_crc = read_crc  # the entry's CRC32C of all its content, read when needed
        self._index = -1
        self._data = b""
        self._whole_crc, self._next_in_order = 0, 0  # the whole CRC, while chunks come in order

    def _move(self, pos: int) -> None:
        pass  # the chunk is found from the position at the next read

    def _read_at(self, n: int) -> bytes:
        i = self._pos >> self._chunks.shift
        if i != self._index:
            self._data, self._index = self._chunks.chunk(i), i
            if i == self._next_in_order:
                self._whole_crc = codecs.crc32c(self._data, self._whole_crc)
                self._next_in_order += 1
        at = self._pos - (i << self._chunks.shift)
        return self._data[at:at + n]

    def _at_end(self) -> None:
        if self._next_in_order == self._chunks.count:
            self._next_in_order += 1  # checked once
            if self._whole_crc != self._read_crc():
                c = self._chunks
                raise CorruptArchive(c.path, c.at, f"{c.label}: content checksum mismatch")


class EntryStream(_Seekable):
    """Content in one piece: checked whole first, then read from its start (or, raw, directly)."""

    def __init__(self, storage: Reads, part: str, content_offset: int, info: EntryInfo,
                 stored_crc: int, dictionary: Any) -> None:
        super().__init__(info.raw_length)
        self._storage, self._part, self._at, self._info = storage, part, content_offset, info
        self._dictionary = dictionary
        self._path = storage.describe(part)
        self._source: ByteSource | None = None
        self._source_pos = 0
        # Before any allocation: an LZ4 block is decoded whole, so its raw length is bounded.
        check_codec(self._path, content_offset, f"entry '{info.name}'", info.codec,
                    info.raw_length, info.stored_length)
        self._check_whole(stored_crc)
        self._restart(0)

    def check_to_end(self) -> None:
        pass  # checked whole when it opened

    def _source_from(self, pos: int) -> ByteSource:
        info = self._info
        stored = _StoredBytes(self._storage, self._part, self._at, info.stored_length,
                              pos if info.codec == 0 else 0)
        if info.codec == 0:
            return stored
        if info.codec == 1:  # an LZ4 block decodes whole; the format bounds it to 64 MiB
            raw = codecs.lz4_decompress(stored.read(), info.raw_length)
            if raw is None:
                raise self._corrupt("content does not decompress")
            return io.BytesIO(raw)
        return codecs.zstd_reader(stored, self._dictionary, CHUNK)

    def _check_whole(self, expected: int) -> None:
        source, crc, produced = self._source_from(0), 0, 0
        while True:
            data = self._read(source, CHUNK)
            if not data:
                break
            produced += len(data)
            if produced > self._info.raw_length:
                raise self._corrupt(f"decodes past its {self._info.raw_length} bytes")
            crc = codecs.crc32c(data, crc)
        if produced != self._info.raw_length:
            raise self._corrupt(f"ends after {produced} of {self._info.raw_length} bytes")
        if crc != expected:
            raise self._corrupt("content checksum mismatch")

    def _restart(self, pos: int) -> None:
        self._source, self._source_pos = self._source_from(pos), pos if self._info.codec == 0 else 0

    def _move(self, pos: int) -> None:
        try:
            if self._source is None or pos < self._source_pos or self._info.codec == 0:
                self._restart(pos)
            while self._source_pos < pos:  # compressed: decode through to the target
                data = self._read(self._source, min(CHUNK, pos - self._source_pos))
                if not data:
                    raise self._corrupt(f"ends after {self._source_pos} bytes")
                self._source_pos += len(data)
        except BaseException:
            self._source = None  # where a failed source stands is unknown: opened again
            raise

    def _read_at(self, n: int) -> bytes:
        try:
            if self._source is None:  # a read failed before: start again at the position
                self._move(self._pos)
            data = self._read(self._source, n)
            if not data:
                raise self._corrupt(f"ends after {self._pos} of {self._info.raw_length} bytes")
        except BaseException:
            self._source = None
            raise
        self._source_pos += len(data)
        return data

    def _read(self, source: ByteSource | None, n: int) -> bytes:
        assert source is not None, "a stream's source is opened before it is read"
        try:
            return source.read(n)
        except codecs.ZstdStreamError:
            raise self._corrupt("content does not decompress")

    def _corrupt(self, what: str) -> CorruptArchive:
        return CorruptArchive(self._path, self._at, f"entry '{self._info.name}': {what}")
