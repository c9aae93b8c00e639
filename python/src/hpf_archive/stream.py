"""Entries as seekable streams in bounded memory, whatever their size and codec. Content is
produced from the start, its CRC32C accumulated; when the stream reaches the end the checksum is
compared and a mismatch is a CorruptArchive from read(). A forward seek reads through (so the
check still covers every byte), a backward seek starts again from the entry's start."""

import io

import crc32c as _crc32c
import lz4.block
import zstandard

from .errors import CorruptArchive

CHUNK = 1 << 20


class _StoredBytes(io.RawIOBase):
    """The stored bytes of an entry, read from its part a chunk at a time."""

    def __init__(self, storage, part, offset, length):
        self.storage, self.part, self.offset, self.length, self.pos = storage, part, offset, length, 0

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
    def __init__(self, storage, part, content_offset, info, stored_crc, dictionary):
        self._storage = storage
        self._part = part
        self._at = content_offset
        self._info = info
        self._expected = stored_crc
        self._dictionary = dictionary
        self._path = storage.describe(part)
        self._restart()

    def _restart(self):
        info = self._info
        stored = _StoredBytes(self._storage, self._part, self._at, info.stored_length)
        if info.codec == 0:
            self._source = stored
        elif info.codec == 1:  # an LZ4 block decodes whole; the format bounds it to 64 MiB
            try:
                raw = lz4.block.decompress(stored.read(), uncompressed_size=info.raw_length)
            except Exception:
                raise CorruptArchive(self._path, self._at, f"entry '{info.name}': content does not decompress")
            self._source = io.BytesIO(raw)
        else:
            dctx = zstandard.ZstdDecompressor(dict_data=self._dictionary)
            self._source = dctx.stream_reader(stored, read_size=CHUNK)
        self._pos = 0
        self._crc = 0
        self._checked = False

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
        if target < self._pos:
            self._restart()
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
        except zstandard.ZstdError:
            raise CorruptArchive(self._path, self._at, f"entry '{self._info.name}': content does not decompress")
        if not data:
            raise CorruptArchive(self._path, self._at,
                                 f"entry '{self._info.name}' ends after {self._pos} of {self._info.raw_length} bytes")
        n = len(data)
        b[:n] = data
        self._crc = _crc32c.crc32c(data, self._crc)
        self._pos += n
        if self._pos == self._info.raw_length:
            self._check_end()
        return n

    def _check_end(self):
        if not self._checked:
            self._checked = True
            try:
                extra = self._source.read(1)
            except zstandard.ZstdError:
                extra = b"x"
            if extra:
                raise CorruptArchive(self._path, self._at,
                                     f"entry '{self._info.name}' decodes past its {self._info.raw_length} bytes")
            if self._crc != self._expected:
                raise CorruptArchive(self._path, self._at, f"entry '{self._info.name}': content checksum mismatch")
