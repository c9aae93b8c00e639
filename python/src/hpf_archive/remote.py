"""An archive directory on any fsspec file system (HDFS, S3, GCS, HTTP, memory, ...).

Every read is positional (`cat_file(path, start, end)`). Index files (segment files; the bucket and catalog files of
older versions)
are read in pages kept in a bounded LRU cache, as the Java HDFS reader keeps index pages: a warm
lookup then costs one remote read, the entry's."""

from __future__ import annotations

import collections
import posixpath
import threading
from typing import Any, List

from .errors import CorruptArchive

PAGE_BYTES = 64 << 10
CACHE_BYTES = 64 << 20
_PAGED = (".hpfs", ".hpfx", ".hpfc")


class FsspecStorage:
    def __init__(self, fs: Any, directory: str, cache_bytes: int = CACHE_BYTES) -> None:
        self.fs = fs
        self.directory = directory.rstrip("/") or "/"
        self._sizes: dict[str, int] | None = None
        # (name, page number) -> bytes, LRU first
        self._pages: collections.OrderedDict[tuple[str, int], bytes] = collections.OrderedDict()
        self._cache_pages = max(1, cache_bytes // PAGE_BYTES)
        self._lock = threading.Lock()

    def describe(self, name: str) -> str:
        path = posixpath.join(self.directory, name) if name else self.directory
        described: str = self.fs.unstrip_protocol(path)
        return described

    def list(self) -> dict[str, int]:
        try:
            listed = self.fs.ls(self.directory, detail=True)
        except FileNotFoundError:
            raise FileNotFoundError(f"{self.describe('')}: no such archive directory") from None
        sizes: dict[str, int] = {}
        for e in listed:
            if e.get("type") == "file":
                sizes[posixpath.basename(e["name"].rstrip("/"))] = int(e.get("size") or 0)
        if not sizes and not self.fs.isdir(self.directory):
            raise FileNotFoundError(f"{self.describe('')}: no such archive directory")
        self._sizes = sizes
        return dict(sizes)

    def _listed(self) -> dict[str, int]:
        sizes = self._sizes
        return sizes if sizes is not None else self.list()

    def read(self, name: str, offset: int, length: int) -> bytes:
        """Exactly `length` bytes at `offset`, or a CorruptArchive naming the file and offset."""
        size = self._listed().get(name)
        if size is None:
            raise CorruptArchive(self.describe(name), offset, "the file is missing")
        if offset < 0 or length < 0 or offset + length > size:
            raise CorruptArchive(self.describe(name), offset,
                                 f"a read of {length} bytes runs past the end at {size}")
        if length == 0:
            return b""
        if name.endswith(_PAGED):
            return self._paged(name, offset, length, size)
        return self._fetch(name, offset, offset + length)

    def read_ranges(self, ranges: List[tuple[str, int, int]]) -> List[bytes]:
        """The bytes of many (name, start, end) ranges of unpaged files, fetched together
        (concurrently on file systems that can: S3, GCS, HTTP), each checked as read checks."""
        sizes = self._listed()
        for name, start, end in ranges:
            size = sizes.get(name)
            if size is None:
                raise CorruptArchive(self.describe(name), start, "the file is missing")
            if start < 0 or end < start or end > size:
                raise CorruptArchive(self.describe(name), start,
                                     f"a read of {end - start} bytes runs past the end at {size}")
        paths = [posixpath.join(self.directory, name) for name, _, _ in ranges]
        got: List[bytes] = self.fs.cat_ranges(paths, [s for _, s, _ in ranges], [e for _, _, e in ranges])
        for (name, start, end), data in zip(ranges, got):
            if isinstance(data, Exception):
                raise data
            if len(data) != end - start:
                raise CorruptArchive(self.describe(name), start,
                                     f"{len(data)} bytes where {end - start} were read (truncated?)")
        return got

    def _fetch(self, name: str, start: int, end: int) -> bytes:
        data: bytes = self.fs.cat_file(posixpath.join(self.directory, name), start=start, end=end)
        if len(data) != end - start:
            raise CorruptArchive(self.describe(name), start,
                                 f"{len(data)} bytes where {end - start} were read (truncated?)")
        return data

    def _paged(self, name: str, offset: int, length: int, size: int) -> bytes:
        first, last = offset // PAGE_BYTES, (offset + length - 1) // PAGE_BYTES
        pieces: List[bytes] = []
        for page in range(first, last + 1):
            key = (name, page)
            with self._lock:
                data = self._pages.get(key)
                if data is not None:
                    self._pages.move_to_end(key)
            if data is None:
                start = page * PAGE_BYTES
                data = self._fetch(name, start, min(size, start + PAGE_BYTES))
                with self._lock:
                    self._pages[key] = data
                    while len(self._pages) > self._cache_pages:
                        self._pages.popitem(last=False)
            pieces.append(data)
        joined = pieces[0] if len(pieces) == 1 else b"".join(pieces)
        at = offset - first * PAGE_BYTES
        return joined[at:at + length]

    def close(self) -> None:
        with self._lock:
            self._pages.clear()
