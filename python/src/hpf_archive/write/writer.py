"""A writer of one archive (FORMAT.md "Commit protocol"): holds the lock, appends entries to a new
part file, and commits them (with the names it deletes) as one segment and one manifest. Names
are checked as they are given, so a name the archive refuses raises before anything is written."""

from __future__ import annotations

import io
import os
import time
from typing import Any, BinaryIO, Optional, Union

from .. import files
from ..archive import Archive
from ..errors import HpfError, NotFound
from ..manifest import ArchiveSettings
from . import cleanup, commit, compaction, lock, recovery
from .bytes_out import sorted_attributes
from .entries import Compressor, fits_group
from .names import normal, parents
from .part import PartWriter
from .segment import Row, accounted
from .target import Target

DEFAULT_BUCKET_CAPACITY = 65536
GROUP_BYTES, GROUP_MAX = 2048, 512
SOLID_GROUP_BYTES, SOLID_GROUP_MAX = 256 << 10, 64 << 10
IN_MEMORY_BYTES = 64 << 20  # content larger than this is streamed, stored raw
Content = Union[bytes, bytearray, memoryview, BinaryIO]


class NameConflict(HpfError, ValueError):
    """A name added twice, already in the archive (without replace), or both a file and a
    directory."""


class Writer:
    """Adds, replaces and deletes entries of one archive; `commit` makes them visible at once.
    Made by `hpf_archive.create` and `hpf_archive.append`. As a context manager it commits on a
    clean exit and commits nothing when the block raises."""

    def __init__(self, target: Target, base: Optional[Archive], settings: ArchiveSettings,
                 bucket_capacity: int, dictionary: Optional[tuple[int, bytes]],
                 held: lock.Lock) -> None:
        self.target, self.settings, self.bucket_capacity = target, settings, bucket_capacity
        self._base, self._lock = base, held
        self._new_dictionary = dictionary if base is None else None
        self._compressor = Compressor(settings.codec, settings.zstd_level,
                                      dictionary[1] if dictionary else None,
                                      dictionary[0] if dictionary else 0)
        self._part: Optional[PartWriter] = None
        self._part_file: Optional[BinaryIO] = None
        self._part_committed = 0  # the part's length a manifest names; 0 while none does
        self._added: dict[str, Any] = {}  # name -> the base's entry it replaces, or None
        self._directories: set[str] = set()  # of the added names
        self._deleted: dict[str, Any] = {}  # name -> the base's entry
        self._replacing = False
        self.closed = False

    # -- what users call ------------------------------------------------------------------

    def add(self, name: str, data: Content, *, mode: int = 0o644, mtime: Optional[float] = None,
            attributes: Optional[dict[str, str]] = None, replace: bool = False) -> None:
        """Adds an entry of `data` (bytes, or a binary file object read to its end). `mtime` in
        seconds since the epoch (now if not given); `replace` lets it replace an entry of the
        same name; without it an existing name raises NameConflict."""
        key = self._claim(name, replace, attributes)
        millis = int(time.time() * 1000) if mtime is None else int(round(mtime * 1000))
        if isinstance(data, (bytes, bytearray, memoryview)):
            self._append(key, bytes(data), millis, mode & 0o7777, attributes)
            return
        size = _size_of(data)
        if size is not None and size > IN_MEMORY_BYTES:
            self._append_stream(key, data.read, size, millis, mode & 0o7777, attributes, key)
        else:
            self._append(key, data.read(), millis, mode & 0o7777, attributes)

    def add_file(self, name: str, path: Union[str, os.PathLike[str]], *, replace: bool = False,
                 attributes: Optional[dict[str, str]] = None) -> None:
        """Adds the file at `path` under `name`, keeping its mode bits and modification time."""
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            key = self._claim(name, replace, attributes)
            mode, millis = st.st_mode & 0o7777, st.st_mtime_ns // 1_000_000
            if st.st_size > IN_MEMORY_BYTES:
                self._append_stream(key, f.read, st.st_size, millis, mode, attributes,
                                    os.fspath(path))
            else:
                self._append(key, f.read(), millis, mode, attributes)

    def delete(self, name: str) -> None:
        """Deletes an entry of the archive at the next commit; NotFound if it has none."""
        key = normal(name)
        if key in self._added:
            raise NameConflict(f"{self.target.describe('')}: '{key}' is both added and deleted "
                               "in one commit")
        if key in self._deleted:
            return
        old = self._base.stat(key) if self._base is not None else None
        if old is None:
            raise NotFound(self.target.describe(""), key)
        self._deleted[key] = old

    def commit(self) -> int:
        """Makes everything added and deleted since the last commit visible at once; returns the
        archive's new generation (the last one if there was nothing to commit)."""
        self._check_open()
        rows = self._finish_part()
        if not rows and not self._deleted and self._base is not None:
            return int(self._base.manifest.generation)
        generation = self._commit_rows(rows)
        if self._part is not None:
            self._part_committed = self._part.length
        self._added, self._deleted, self._directories = {}, {}, set()
        self._replacing = False
        return generation

    def commit_recovered(self, rows: list[Row], parts: dict[int, int]) -> int:
        """Commits what recovery kept of dead writers' parts (FORMAT.md "Recovery")."""
        assert self._base is not None
        base = self._base.manifest
        rows.sort(key=lambda r: r.name)
        return self._write_commit(rows, {**base.parts, **parts},
                                  base.live_entries + len(rows),
                                  base.live_bytes + sum(r.accounted() for r in rows),
                                  f"recover {len(rows)} entries")

    def abort(self) -> None:
        """Drops everything since the last commit and lets the lock go."""
        if self.closed:
            return
        try:
            if self._part_file is not None:
                assert self._part is not None
                f, self._part_file = self._part_file, None
                try:  # a close that cannot write its buffer (a full disk) fails: let it
                    if self._part_committed:  # what follows the commit is no entry of it
                        f.truncate(self._part_committed)
                    f.close()
                except OSError:
                    pass
                if not self._part_committed:
                    self.target.delete(files.part(self._part.part_id))
        finally:
            self._end()

    def close(self) -> None:
        """Lets the lock go; what was not committed is dropped (as abort)."""
        self.abort()

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, kind: Any, *_: Any) -> None:
        if kind is None:
            try:
                self.commit()
            except BaseException:
                self.abort()
                raise
            self._end()
        else:
            self.abort()

    # -- names ------------------------------------------------------------------------------

    def _claim(self, name: str, replace: bool, attributes: Optional[dict[str, str]]) -> str:
        """The normal form of a name being added, refused now if the commit would refuse it."""
        self._check_open()
        key = normal(name)
        where = self.target.describe("")
        if key in self._added:
            raise NameConflict(f"{where}: '{key}' is added twice")
        if key in self._deleted:
            raise NameConflict(f"{where}: '{key}' is both added and deleted in one commit")
        if key in self._directories:
            raise NameConflict(f"{where}: '{key}' would be a file and a directory (of names "
                               "added in this commit)")
        for parent in parents(key):
            if parent in self._added or self._in_base(parent) is not None:
                raise NameConflict(f"{where}: '{key}' is under '{parent}', which is a file")
        old = self._in_base(key)
        if old is not None and not replace:
            raise NameConflict(f"{where}: '{key}' already exists (add it with replace=True)")
        if old is None and self._base_has_under(key):
            raise NameConflict(f"{where}: '{key}' is a directory of the archive")
        for k, v in (attributes or {}).items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError("attributes are str keys and str values")
        self._added[key] = old
        self._replacing |= replace
        self._directories.update(parents(key))
        return key

    def _in_base(self, name: str) -> Any:
        """The base's entry of a name it keeps (not deleted in this commit), or None."""
        if self._base is None or name in self._deleted:
            return None
        return self._base.stat(name)

    def _base_has_under(self, name: str) -> bool:
        if self._base is None or self._base.manifest.live_entries == 0:
            return False
        return any(info.name not in self._deleted for info in self._base.list(name + "/"))

    # -- parts ------------------------------------------------------------------------------

    def _part_writer(self) -> PartWriter:
        if self._part is None:
            part_id = self._next_part_id()
            self._part_file = self.target.create(files.part(part_id), exclusive=True)
            s = self.settings
            self._part = PartWriter(self._part_file, part_id, self._compressor, s.group_bytes,
                                    s.group_entry_max_bytes)
        return self._part

    def _next_part_id(self) -> int:
        return recovery.next_part_id(self.target.list(), self._base)

    def _append(self, key: str, raw: bytes, millis: int, mode: int,
                attributes: Optional[dict[str, str]]) -> None:
        encoded = key.encode("utf-8")
        self._part_writer().add(encoded, raw, millis, mode, sorted_attributes(attributes),
                                fits_group(encoded, attributes))

    def _append_stream(self, key: str, read: Any, size: int, millis: int, mode: int,
                       attributes: Optional[dict[str, str]], source: str) -> None:
        self._part_writer().add_stream(key.encode("utf-8"), read, size, millis, mode,
                                       sorted_attributes(attributes), source)

    def _finish_part(self) -> list[Row]:
        """The rows of the entries appended since the last commit, their bytes made durable. On
        local disk the part stays open for the next commit (a manifest may name a part again with
        a greater length: FORMAT.md "Commit protocol"); elsewhere a file is readable only once
        closed, and the next commit starts a new part."""
        if self._part is None or not (self._part.rows or self._part.members):
            return []
        part, f = self._part, self._part_file
        assert f is not None
        part.write_group()
        self.target.sync(f)
        rows, part.rows = part.rows, []
        self._parts_written = (part.part_id, part.length)
        if not self.target.local:
            f.close()
            self._part, self._part_file = None, None
        return rows

    # -- the commit -------------------------------------------------------------------------

    def live_after(self, rows: list[Row]) -> tuple[int, int]:
        """The live entries and entry bytes once `rows` (added or replacing, claimed) and the
        names this writer deletes are committed (FORMAT.md "Manifest")."""
        base = self._base.manifest if self._base else None
        live_entries = base.live_entries if base else 0
        live_bytes = base.live_bytes if base else 0
        for r in rows:
            old = self._added[r.name.decode("utf-8", "surrogateescape")]
            live_entries += old is None
            live_bytes += r.accounted() - (accounted(old) if old is not None else 0)
        for old in self._deleted.values():
            live_entries -= 1
            live_bytes -= accounted(old)
        return live_entries, live_bytes

    def _commit_rows(self, rows: list[Row]) -> int:
        base = self._base.manifest if self._base else None
        live_entries, live_bytes = self.live_after(rows)
        added = len(rows)
        rows = rows + [Row(n.encode("utf-8"), deleted=True) for n in self._deleted]
        rows.sort(key=lambda r: r.name)
        parts = dict(base.parts) if base else {}
        if added:
            parts[self._parts_written[0]] = self._parts_written[1]
        operation = ("create " + _entries(len(rows)) if base is None
                     else _describe(self._replacing, added, len(self._deleted)))
        return self._write_commit(rows, parts, live_entries, live_bytes, operation)

    def _write_commit(self, rows: list[Row], parts: dict[int, int], live_entries: int,
                      live_bytes: int, operation: str) -> int:
        kept = list(self._base.manifest.segments) if self._base else []
        m = commit.commit_segment(self.target, self._base, self.settings, self.bucket_capacity,
                                  rows, parts, kept, len(kept), live_entries, live_bytes,
                                  operation, self._new_dictionary)
        self._new_dictionary = None
        self._reopen()
        while True:
            assert self._base is not None
            segments = self._base.manifest.segments
            run = compaction.choose_run(segments)
            if run is None:
                break
            start, end = run
            merged = compaction.merged_rows(self._base, start, end)
            b = self._base.manifest
            m = commit.commit_segment(self.target, self._base, self.settings,
                                      self.bucket_capacity, merged, b.parts,
                                      segments[:start] + segments[end:], start, b.live_entries,
                                      b.live_bytes, f"auto-compact: segments {start + 1}-{end} "
                                      f"of {len(segments)} merged (index only)", None)
            self._reopen()
        cleanup.clean(self.target, m)
        return m.generation

    def _reopen(self) -> None:
        if self._base is not None:
            self._base.close()
        self._base = Archive(self.target.storage())

    def _check_open(self) -> None:
        if self.closed:
            raise HpfError(f"{self.target.describe('')}: the writer is closed")

    def _end(self) -> None:
        self.closed = True
        if self._base is not None:
            self._base.close()
        self._lock.release()


def _size_of(f: Any) -> Optional[int]:
    try:
        at = f.tell()
        end = f.seek(0, io.SEEK_END)
        f.seek(at)
        return int(end - at)
    except (AttributeError, OSError, ValueError):
        return None


def _entries(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def _describe(replace: bool, added: int, deleted: int) -> str:
    verb = "add --replace" if replace else "add"
    if deleted == 0:
        return f"{verb} {_entries(added)}"
    return f"rm {_entries(deleted)}" if added == 0 else f"{verb} {_entries(added)}, rm {deleted}"


__all__ = ["Writer", "NameConflict"]
