"""Entries as seekable streams in bounded memory, whatever their size and codec. Content is
produced from the start, its CRC32C accumulated; when the stream reaches the end the checksum is
compared and a mismatch is a CorruptArchive from read(). A forward seek reads through (so the
check still covers every byte), a backward seek starts again from the entry's start.

An uncompressed entry that was once read to its end with a matching checksum is remembered by
its archive (`verified`); later streams of it seek directly and read only the bytes asked for,
as the Java server does with content it has checked once."""

import io

from . import codecs
from .entry import check_codec
from .errors import CorruptArchive

CHUNK = 1 << 20


class _StoredBytes(io.RawIOBase):
    """The stored bytes of an entry, read from its part a chunk at a time."""

    def __init__(self, storage, part, offset, length, pos=0):
        self.storage, self.part, self.offset, self.length, self.pos = storage, part, offset, length, pos

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.length - self.pos)
        if n <= 0:
            return 0
        b[:n] = self.storage.read(self.part, self.offset + self.pos, n)
        self.pos += n
        return n


class EntryStream(io.RawIOBase):
    def __init__(self, storage, part, content_offset, info, stored_crc, dictionary, verified):
        self._storage = storage
        self._part = part
        self._at = content_offset
        self._info = info
        self._expected = stored_crc
        self._dictionary = dictionary
        self._verified = verified
        self._key = (info.part_id, info.offset)
        self._path = storage.describe(part)
        # Before any allocation: an LZ4 block is decoded whole, so its raw length is bounded.
        check_codec(storage, part, content_offset, f"entry '{info.name}'", info.codec, info.raw_length,
                    info.stored_length)
        self._restart(0)

    def _restart(self, pos):
        """Reads again from `pos`: directly if this raw entry was checked before, else from 0."""
        info = self._info
        direct = info.codec == 0 and self._key in self._verified
        pos = pos if direct else 0
        stored = _StoredBytes(self._storage, self._part, self._at, info.stored_length, pos)
        if info.codec == 0:
            self._source = stored
        elif info.codec == 1:  # an LZ4 block decodes whole; the format bounds it to 64 MiB
            raw = codecs.lz4_decompress(stored.read(), info.raw_length)
            if raw is None:
                raise self._corrupt("content does not decompress")
            self._source = io.BytesIO(raw)
        else:
            self._source = codecs.zstd_reader(stored, self._dictionary, CHUNK)
        self._pos = pos
        self._crc = 0
        self._checked = direct  # nothing left to check on a direct read

    def _corrupt(self, what):
        return CorruptArchive(self._path, self._at, f"entry '{self._info.name}': {what}")

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self._pos

    def seek(self, offset, whence=io.SEEK_SET):
        target = {io.SEEK_SET: offset, io.SEEK_CUR: self._pos + offset,
                  io.SEEK_END: self._info.raw_length + offset}[whence]
        if target < 0:
            raise ValueError(f"negative position {target}")
        target = min(target, self._info.raw_length)
        if target < self._pos or (target > self._pos and self._checked):
            self._restart(target)
        while self._pos < target:
            if not self.read(min(CHUNK, target - self._pos)):
                break
        return self._pos

    def readinto(self, b):
        left = self._info.raw_length - self._pos
        if left <= 0:
            self._check_end()
            return 0
        want = min(len(b), left)
        try:
            data = self._source.read(want)
        except codecs.ZstdStreamError:
            raise self._corrupt("content does not decompress")
        if not data:
            raise self._corrupt(f"ends after {self._pos} of {self._info.raw_length} bytes")
        n = len(data)
        b[:n] = data
        if not self._checked:
            self._crc = codecs.crc32c(data, self._crc)
        self._pos += n
        if self._pos == self._info.raw_length:
            self._check_end()
        return n

    def _check_end(self):
        if not self._checked:
            self._checked = True
            try:
                extra = self._source.read(1)
            except codecs.ZstdStreamError:
                extra = b"x"
            if extra:
                raise self._corrupt(f"decodes past its {self._info.raw_length} bytes")
            if self._crc != self._expected:
                raise self._corrupt("content checksum mismatch")
            if self._info.codec == 0:
                self._verified.add(self._key)
