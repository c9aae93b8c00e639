"""Where an archive's files are read from: a local directory through mmap (the warm path), or
any fsspec file system (remote.py)."""

import mmap
import os
import threading

from .errors import CorruptArchive


def open_storage(location, fs=None, storage_options=None):
    """The storage of an archive directory: on `fs` if given; through fsspec for a URL other than
    file://; else on local disk."""
    if fs is None and isinstance(location, str) and "://" in location:
        import fsspec.core

        try:
            fs, location = fsspec.core.url_to_fs(location, **(storage_options or {}))
        except Exception as e:  # noqa: BLE001 - whatever the hdfs:// driver says, say what to do
            if not location.startswith("hdfs://"):
                raise
            raise _no_hdfs_driver(location, e) from e
    if fs is not None:
        from fsspec.implementations.local import LocalFileSystem

        if not isinstance(fs, LocalFileSystem):
            from .remote import FsspecStorage

            return FsspecStorage(fs, location)
    return LocalStorage(location)


def _no_hdfs_driver(location, cause):
    """hdfs:// goes through pyarrow's libhdfs, which needs a Java runtime and Hadoop's native
    library; without them the archive is read over WebHDFS, the NameNode's HTTP interface."""
    from urllib.parse import urlsplit

    url = urlsplit(location)
    reason = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
    return OSError(
        f"{location}: hdfs:// is read through pyarrow's libhdfs, which needs a Java runtime and "
        f"Hadoop's libhdfs ({reason}); to read without them, use WebHDFS: "
        f"webhdfs://{url.hostname or 'NAMENODE'}:HTTP_PORT{url.path} (the NameNode's HTTP port, "
        "9870 by default; `hpf hdfs status --webhdfs` prints the local HDFS's; needs requests)")


class LocalStorage:
    """An archive directory on local disk. Files are mapped once and shared by every thread:
    slicing a mapping is a positional read without a system call."""

    def __init__(self, directory):
        self.directory = os.fspath(directory)
        if not os.path.isdir(self.directory):
            raise FileNotFoundError(f"{self.directory}: no such archive directory")
        self._maps = {}
        self._lock = threading.Lock()

    def describe(self, name):
        return os.path.join(self.directory, name)

    def list(self):
        """File names and lengths of the directory."""
        out = {}
        for e in os.scandir(self.directory):
            if e.is_file():
                out[e.name] = e.stat().st_size
        return out

    def _map(self, name):
        with self._lock:
            m = self._maps.get(name)
            if m is None:
                try:
                    with open(self.describe(name), "rb") as f:
                        size = os.fstat(f.fileno()).st_size
                        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
                except FileNotFoundError:
                    raise CorruptArchive(self.describe(name), 0, "the file is missing") from None
                self._maps[name] = m
        return m

    def read(self, name, offset, length):
        """Exactly `length` bytes at `offset`, or a CorruptArchive naming the file and offset."""
        m = self._maps.get(name)
        if m is None:
            m = self._map(name)
        end = offset + length
        if offset < 0 or length < 0 or end > len(m):
            raise CorruptArchive(self.describe(name), offset,
                                 f"a read of {length} bytes runs past the end at {len(m)}")
        return m[offset:end]

    def close(self):
        with self._lock:
            for m in self._maps.values():
                if isinstance(m, mmap.mmap):
                    m.close()
            self._maps.clear()
