"""Where a writer puts an archive's files: a local directory (files synced, the manifest renamed
into place and the directory synced: FORMAT.md "Commit protocol"), or any fsspec file system
(a file is there once closed; the manifest is written under its temporary name and moved, as
hpf's Java writer commits on object stores). Internal to the writer."""

from __future__ import annotations

import os
import posixpath
from typing import Any, BinaryIO, Optional


class Target:
    """The archive directory a writer writes; names are file names inside it."""

    local = True

    def describe(self, name: str) -> str:
        raise NotImplementedError

    def list(self) -> dict[str, int]:
        raise NotImplementedError

    def exists(self) -> bool:
        raise NotImplementedError

    def make_directory(self) -> None:
        raise NotImplementedError

    def create(self, name: str, exclusive: bool = False) -> BinaryIO:
        raise NotImplementedError

    def sync(self, f: BinaryIO) -> None:
        """Makes what was written to `f` durable before it is named by a manifest."""

    def read(self, name: str) -> bytes:
        raise NotImplementedError

    def rename(self, source: str, target: str) -> None:
        raise NotImplementedError

    def delete(self, name: str) -> None:
        raise NotImplementedError

    def storage(self) -> Any:
        """The reader's storage of the same directory (hpf_archive.storage)."""
        raise NotImplementedError


class LocalTarget(Target):
    def __init__(self, directory: str) -> None:
        self.directory = os.path.abspath(os.fspath(directory))

    def describe(self, name: str) -> str:
        return os.path.join(self.directory, name) if name else self.directory

    def list(self) -> dict[str, int]:
        out = {}
        for e in os.scandir(self.directory):
            if e.is_file(follow_symlinks=False):
                out[e.name] = e.stat(follow_symlinks=False).st_size
        return out

    def exists(self) -> bool:
        return os.path.exists(self.directory)

    def make_directory(self) -> None:
        os.makedirs(self.directory, exist_ok=True)

    def create(self, name: str, exclusive: bool = False) -> BinaryIO:
        return open(self.describe(name), "xb" if exclusive else "wb")  # noqa: SIM115

    def sync(self, f: BinaryIO) -> None:
        f.flush()
        os.fsync(f.fileno())

    def read(self, name: str) -> bytes:
        with open(self.describe(name), "rb") as f:
            return f.read()

    def rename(self, source: str, target: str) -> None:
        os.rename(self.describe(source), self.describe(target))
        fd = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(fd)  # the rename is the commit: it must outlive a crash
        finally:
            os.close(fd)

    def delete(self, name: str) -> None:
        try:
            os.unlink(self.describe(name))
        except FileNotFoundError:
            pass

    def storage(self) -> Any:
        from ..storage import LocalStorage

        return LocalStorage(self.directory)


class FsspecTarget(Target):
    local = False

    def __init__(self, fs: Any, directory: str) -> None:
        self.fs = fs
        self.directory = directory.rstrip("/") or "/"

    def _path(self, name: str) -> str:
        return posixpath.join(self.directory, name) if name else self.directory

    def describe(self, name: str) -> str:
        return str(self.fs.unstrip_protocol(self._path(name)))

    def list(self) -> dict[str, int]:
        self.fs.invalidate_cache(self.directory)
        try:
            listed = self.fs.ls(self.directory, detail=True)
        except FileNotFoundError:
            return {}
        return {posixpath.basename(e["name"].rstrip("/")): int(e.get("size") or 0)
                for e in listed if e.get("type") == "file"}

    def exists(self) -> bool:
        self.fs.invalidate_cache(self.directory)
        return bool(self.fs.exists(self.directory))

    def make_directory(self) -> None:
        self.fs.makedirs(self.directory, exist_ok=True)

    def create(self, name: str, exclusive: bool = False) -> BinaryIO:
        if exclusive and name in self.list():  # as Hadoop's create(overwrite=false) on s3a
            raise FileExistsError(self.describe(name))
        return self.fs.open(self._path(name), "wb")  # type: ignore[no-any-return]

    def read(self, name: str) -> bytes:
        return bytes(self.fs.cat_file(self._path(name)))

    def rename(self, source: str, target: str) -> None:
        self.fs.mv(self._path(source), self._path(target))

    def delete(self, name: str) -> None:
        try:
            self.fs.rm_file(self._path(name))
        except FileNotFoundError:
            pass

    def storage(self) -> Any:
        from ..remote import FsspecStorage

        return FsspecStorage(self.fs, self.directory)


def target_of(location: Any, fs: Optional[Any] = None,
              storage_options: Optional[dict[str, Any]] = None) -> Target:
    """The target of a local path or an fsspec URL (s3://, webhdfs://, memory://)."""
    if fs is None and isinstance(location, str) and "://" in location:
        import fsspec.core

        fs, location = fsspec.core.url_to_fs(location, **(storage_options or {}))
    if fs is not None:
        from fsspec.implementations.local import LocalFileSystem

        if not isinstance(fs, LocalFileSystem):
            return FsspecTarget(fs, location)
    return LocalTarget(location)
