"""hpf archives as a read-only fsspec file system, protocol "hpf" (registered through the
`fsspec.specs` entry point).

Two ways to name an entry, as in the issue and the Java `hpf://` file system:

- bound to one archive: `fsspec.filesystem("hpf", fo="/data/photos.hpf")`, or fsspec's chained
  URL `hpf://2024/01/meta.csv::s3://bucket/photos.hpf`; paths are names inside the archive.
- the Java form: `hpf://file-/data/photos.hpf/2024/01/meta.csv`, where the authority names the
  archive's own file system as HAR does (`file-` or empty for local disk, `hdfs-nn:8020` for
  `hdfs://nn:8020`, `s3-bucket` for `s3://bucket`) and the archive is the first path component
  ending in `.hpf`. Paths this file system returns keep that form.

Directories are derived from names: an entry `2024/01/a.log` is file `a.log` in directory
`2024/01`. Sizes are raw lengths, `mtime` the entry's (seconds). Every change raises ReadOnly.
As the Java `hpf://` does, an archive in use is looked at again for a newer generation at most
once a `refresh_interval` (1 s by default; one directory listing): later calls see later
commits, while a stream already open keeps reading the generation it was opened in."""

from __future__ import annotations

import datetime
import threading
import time
from typing import IO, Any, NoReturn, Union

from fsspec import AbstractFileSystem

from .archive import Archive, open as open_archive
from .catalog import EntryInfo
from .errors import ReadOnly

Info = dict[str, Any]
"""What fsspec says of a path: name, size, type and more."""

SUFFIX = ".hpf"


class HpfFileSystem(AbstractFileSystem):  # type: ignore[misc]  # fsspec has no types
    protocol = "hpf"
    root_marker = ""

    def __init__(self, fo: str | None = None, target_protocol: str | None = None,
                 target_options: dict[str, Any] | None = None, fs: Any = None,
                 refresh_interval: float | None = 1.0, **kwargs: Any) -> None:
        """fo: the archive to bind to (a local path or an fsspec URL; a path on `fs`, or on
        `target_protocol`'s file system with `target_options`, when given). Without it, paths
        name their archive in the Java form. refresh_interval: seconds between looks for a newer
        generation of an archive in use (None: never)."""
        super().__init__(**kwargs)
        self._fo, self._target = fo, (target_protocol, target_options, fs)
        self._refresh = refresh_interval
        # archive location -> (Archive, when it was last known current)
        self._archives: dict[str | None, tuple[Archive, float]] = {}
        self._lock = threading.Lock()

    # --- paths -----------------------------------------------------------------------------

    def _resolve(self, path: str) -> tuple[Archive, str, str]:
        """(archive, name inside it, prefix of the paths returned for its entries)."""
        path = str(self._strip_protocol(path))
        if self._fo is not None:
            return self._archive(None), path.strip("/"), ""
        if path.startswith("/"):  # an empty authority: local disk
            authority, rest = "", path
        else:
            authority, _, rest = path.partition("/")
        components = [c for c in rest.split("/") if c]
        for i, c in enumerate(components):
            if c.endswith(SUFFIX) and len(c) > len(SUFFIX):
                archive_path = "/" + "/".join(components[:i + 1])
                inner = "/".join(components[i + 1:])
                prefix = (authority + archive_path if authority else archive_path) + "/"
                return self._archive(_location(authority, archive_path, path)), inner, prefix
        raise FileNotFoundError(f"hpf://{path}: names no archive (no path component ends in {SUFFIX})")

    def _archive(self, location: str | None) -> Archive:
        known = self._archives.get(location)
        if known is not None and not self._due(known):
            return known[0]
        with self._lock:
            known = self._archives.get(location)
            if known is None or (self._due(known) and not known[0].is_current()):
                # The generation it replaces is not closed: streams may still read it, and its
                # files are let go when the last of them is.
                archive = self._open_archive(location)
            elif self._due(known):
                archive = known[0]
            else:
                return known[0]
            self._archives[location] = (archive, time.monotonic())
            return archive

    def _due(self, known: tuple[Archive, float]) -> bool:
        return self._refresh is not None and time.monotonic() - known[1] >= self._refresh

    def _open_archive(self, location: str | None) -> Archive:
        if location is not None:
            return open_archive(location)
        protocol, options, fs = self._target
        assert self._fo is not None  # a path names its archive, or this is bound to one
        if fs is None and protocol is not None:
            import fsspec

            fs = fsspec.filesystem(protocol, **(options or {}))
        return open_archive(self._fo, fs=fs, storage_options=None if fs else options)

    def invalidate_cache(self, path: str | None = None) -> None:
        """Forgets the archives opened so far: the next use opens each at its newest generation.
        Streams already open go on reading theirs."""
        with self._lock:
            self._archives = {}

    # --- metadata --------------------------------------------------------------------------

    @staticmethod
    def _file(prefix: str, e: EntryInfo) -> Info:
        return {"name": prefix + e.name, "size": e.raw_length, "type": "file",
                "mtime": e.mtime_millis / 1000.0, "mode": e.mode, "stored_size": e.stored_length,
                "codec": ("none", "lz4", "zstd")[e.codec] if e.codec < 3 else e.codec}

    @staticmethod
    def _directory(name: str) -> Info:
        return {"name": name, "size": 0, "type": "directory"}

    def info(self, path: str, **kwargs: Any) -> Info:
        archive, inner, prefix = self._resolve(path)
        if inner:
            e = archive.stat(inner)
            if e is not None:
                return self._file(prefix, e)
            if not _is_directory(archive, inner):
                raise FileNotFoundError(f"{path}: no such entry or directory")
        return self._directory((prefix + inner).rstrip("/"))

    def ls(self, path: str, detail: bool = True, **kwargs: Any) -> list[Any]:
        archive, inner, prefix = self._resolve(path)
        if inner:
            e = archive.stat(inner)
            if e is not None:
                one = [self._file(prefix, e)]
                return one if detail else [one[0]["name"]]
        out: list[Info] = []
        for child in archive.children(inner):
            if isinstance(child, str):
                out.append(self._directory(prefix + child))
            else:
                out.append(self._file(prefix, child))
        if not out and inner:
            raise FileNotFoundError(f"{path}: no such entry or directory")
        return out if detail else [o["name"] for o in out]

    def find(self, path: str, maxdepth: int | None = None, withdirs: bool = False,
             detail: bool = False, **kwargs: Any) -> Union[dict[str, Info], list[str]]:
        """Every entry below path from one merged catalog listing (not a walk of ls calls), with
        the directories their names imply when withdirs."""
        if maxdepth is not None and maxdepth < 1:
            raise ValueError("maxdepth must be at least 1")
        archive, inner, prefix = self._resolve(path)
        out: dict[str, Info] = {}
        if inner:
            e = archive.stat(inner)
            if e is not None:
                out[prefix + e.name] = self._file(prefix, e)
                return out if detail else list(out)
        base = inner + "/" if inner else ""
        for e in archive.list(base):
            parts = e.name[len(base):].split("/")
            if withdirs:
                if inner:  # the directory asked about, as posix find lists it
                    out.setdefault(prefix + inner, self._directory(prefix + inner))
                for depth in range(1, len(parts) if maxdepth is None else min(len(parts), maxdepth + 1)):
                    d = prefix + base + "/".join(parts[:depth])
                    if d not in out:
                        out[d] = self._directory(d)
            if maxdepth is None or len(parts) <= maxdepth:
                out[prefix + e.name] = self._file(prefix, e)
        names = sorted(out)
        return {n: out[n] for n in names} if detail else names

    def modified(self, path: str) -> datetime.datetime:
        info = self.info(path)
        if info["type"] != "file":
            raise IsADirectoryError(f"{path}: a directory has no time of its own")
        return datetime.datetime.fromtimestamp(info["mtime"], tz=datetime.timezone.utc)

    # --- content ---------------------------------------------------------------------------

    def _entry(self, path: str) -> tuple[Archive, EntryInfo]:
        archive, inner, _ = self._resolve(path)
        e = archive.stat(inner) if inner else None
        if e is None:
            if _is_directory(archive, inner):
                raise IsADirectoryError(f"{path}: a directory")
            raise FileNotFoundError(f"{path}: no such entry")
        return archive, e

    def cat_file(self, path: str, start: int | None = None, end: int | None = None,
                 **kwargs: Any) -> bytes:
        """The entry's bytes [start, end) (negative: from its end), checked against its CRC32C
        (Archive.open_entry: small entries read whole, large ones streamed to the range)."""
        archive, e = self._entry(path)
        size = e.raw_length
        first = 0 if start is None else (max(0, size + start) if start < 0 else min(start, size))
        last = size if end is None else (max(0, size + end) if end < 0 else min(end, size))
        if last <= first:
            return b""
        with archive.open_entry(e) as f:
            f.seek(first)
            return f.read(last - first)

    def _open(self, path: str, mode: str = "rb", block_size: int | None = None,
              autocommit: bool = True, cache_options: dict[str, Any] | None = None,
              **kwargs: Any) -> IO[bytes]:
        if mode != "rb":
            _refuse(self, path)
        archive, e = self._entry(path)
        return archive.open_entry(e)


def _is_directory(archive: Archive, inner: str) -> bool:
    """Whether a name inside an archive is a directory: the root, or a prefix of live names."""
    return not inner or next(iter(archive.list(inner + "/")), None) is not None


def _location(authority: str, archive_path: str, path: str) -> str:
    """The archive's location for hpf_archive.open: a local path or an fsspec URL."""
    if authority in ("", "file-"):
        return archive_path
    scheme, dash, rest = authority.partition("-")
    if not dash or not scheme:
        raise ValueError(f"hpf://{path}: the authority must name the archive's file system as "
                         "<scheme>-<host>:<port> (hpf://hdfs-namenode:8020/..., hpf://file-/... "
                         "for local disk)")
    return f"{scheme}://{rest}{archive_path}"


def _refuse(fs: HpfFileSystem, path: str, *args: Any, **kwargs: Any) -> NoReturn:
    raise ReadOnly(f"{path}: hpf archives are read-only through fsspec (use the hpf command to "
                   "add, replace or delete entries)")


for _change in ("mkdir", "makedirs", "rmdir", "rm_file", "_rm", "rm", "cp_file", "copy", "mv",
                "touch", "pipe_file", "pipe", "put_file", "put", "setxattrs"):
    setattr(HpfFileSystem, _change, _refuse)
