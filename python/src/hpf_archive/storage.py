"""Where an archive's files are read from: a local directory through mmap (the warm path), or
any fsspec file system (remote.py)."""

from __future__ import annotations

import mmap
import os
import threading
from typing import TYPE_CHECKING, Any, Union

from .errors import ArchiveReplaced, CorruptArchive

if TYPE_CHECKING:
    from .remote import FsspecStorage

Version = tuple[int, int, int, int]


def open_storage(location: str | os.PathLike[str], fs: Any = None,
                 storage_options: dict[str, Any] | None = None) -> Union[LocalStorage, FsspecStorage]:
    """The storage of an archive directory: on `fs` if given; s3:// with the option `signed_http`
    through signed HTTP requests of its own (s3http.py); through fsspec for a URL other than
    file://; else on local disk."""
    where = os.fspath(location)
    if (fs is None and where.startswith("s3://")
            and (storage_options or {}).get("signed_http")):
        from .remote import FsspecStorage
        from .s3http import SignedS3

        return FsspecStorage(SignedS3(storage_options), where[len("s3://"):])
    storage_options = {k: v for k, v in (storage_options or {}).items() if k != "signed_http"}
    if fs is None and "://" in where:
        import fsspec.core

        try:
            fs, where = fsspec.core.url_to_fs(where, **(storage_options or {}))
        except Exception as e:  # noqa: BLE001 - whatever the hdfs:// driver says, say what to do
            if not where.startswith("hdfs://"):
                raise
            raise _no_hdfs_driver(where, e) from e
    if fs is not None:
        from fsspec.implementations.local import LocalFileSystem

        if not isinstance(fs, LocalFileSystem):
            from .remote import FsspecStorage

            return FsspecStorage(fs, where)
    return LocalStorage(where)


def _no_hdfs_driver(location: str, cause: Exception) -> OSError:
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


def _version(st: os.stat_result) -> Version:
    """What a file is: a file replaced under its name (renamed over, made again) has another."""
    return st.st_ino, st.st_dev, st.st_mtime_ns, st.st_size


class LocalStorage:
    """An archive directory on local disk. Files are mapped once and shared by every thread:
    slicing a mapping is a positional read without a system call."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = os.fspath(directory)
        if not os.path.isdir(self.directory):
            raise FileNotFoundError(f"{self.directory}: no such archive directory")
        self._maps: dict[str, mmap.mmap | bytes] = {}
        self._lock = threading.Lock()
        # name -> what the file is (see _version), as last listed
        self.listed_versions: dict[str, Version] = {}
        self._pinned: dict[str, Version] = {}

    def describe(self, name: str) -> str:
        return os.path.join(self.directory, name) if name else self.directory

    def list(self) -> dict[str, int]:
        """File names and lengths of the directory (their versions kept in listed_versions)."""
        out: dict[str, int] = {}
        versions: dict[str, Version] = {}
        for e in os.scandir(self.directory):
            if e.is_file():
                st = e.stat()
                out[e.name] = st.st_size
                versions[e.name] = _version(st)
        self.listed_versions = versions
        return out

    def pin(self, versions: dict[str, Version]) -> None:
        """From now on a file is mapped only if it is the file of that version (name -> version):
        the files of the generation a reader opened, not another archive's put in its place."""
        self._pinned = dict(versions)

    def _map(self, name: str) -> mmap.mmap | bytes:
        with self._lock:
            m = self._maps.get(name)
            if m is None:
                try:
                    with open(self.describe(name), "rb") as f:
                        st = os.fstat(f.fileno())
                        pinned = self._pinned.get(name)
                        # The same inode is the same file, changed in place or not (cut short:
                        # its lost entries say so), as Java's LocalStorage.sameFile judges it.
                        if pinned is not None and pinned[:2] != _version(st)[:2]:
                            raise ArchiveReplaced(
                                f"{self.describe(name)}: another file now than when the archive "
                                "was opened (it was replaced under this reader): open it again")
                        size = st.st_size
                        m = (mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size
                             else b"")
                except FileNotFoundError:
                    raise CorruptArchive(self.describe(name), 0, "the file is missing") from None
                self._maps[name] = m
        return m

    def read(self, name: str, offset: int, length: int) -> bytes:
        """Exactly `length` bytes at `offset`, or a CorruptArchive naming the file and offset."""
        m = self._maps.get(name)
        if m is None:
            m = self._map(name)
        end = offset + length
        if offset < 0 or length < 0 or end > len(m):
            raise CorruptArchive(self.describe(name), offset,
                                 f"a read of {length} bytes runs past the end at {len(m)}")
        return m[offset:end]

    def close(self) -> None:
        with self._lock:
            for m in self._maps.values():
                if isinstance(m, mmap.mmap):
                    m.close()
            self._maps.clear()
