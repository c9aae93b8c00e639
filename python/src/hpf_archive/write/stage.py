"""Parallel writers (FORMAT.md "Recovery": imports): each task, in any process, writes an archive
of its own in `<archive>/_hpf_jobs/<job>/<task>.<attempt>`; `commit` takes the archive's lock and
moves every finished task's parts in under new part ids, in one commit, as hpf's MapReduce and
Spark writers do. A task is finished when its `with` block ended cleanly; of two attempts of one
task that both finished, one is committed."""

from __future__ import annotations

import posixpath
import uuid
from typing import Any, Optional

from .. import files
from ..archive import Archive
from ..manifest import ArchiveSettings, newest_manifest_name
from . import commit, lock
from .entries import CODECS
from .opening import append, create
from .recovery import next_part_id
from .segment import Row
from .target import Target, target_of
from .writer import DEFAULT_BUCKET_CAPACITY, NameConflict, Writer

STAGING = "_hpf_jobs"
IMPORT_MARKER = "hpf.import"


class Stage:
    """A job's staging area in an archive (new or not). Picklable: hand it to worker processes
    (multiprocessing, Ray, Dask), each calling `writer(task_id)`; then `commit` once."""

    def __init__(self, location: Any, job: Optional[str] = None, replace: bool = False,
                 storage_options: Optional[dict[str, Any]] = None, **settings: Any) -> None:
        self.location = str(location)
        self.job = job or uuid.uuid4().hex[:12]
        self.replace = replace
        self.storage_options = storage_options
        self.settings = settings  # codec, level, group_size, group_max for a new archive
        target = self._target()
        if target.exists() and newest_manifest_name(target.list()) is not None:
            lock.acquire(target).release()  # fails now, naming the holder, if a writer has it
            with Archive(target.storage()) as a:
                s = a.manifest.writer_settings
            if s is not None and not settings:  # tasks store entries as the archive's writers
                self.settings = {"codec": _codec_name(s), "level": s.zstd_level,
                                 "group_size": s.group_bytes, "group_max": s.group_entry_max_bytes}
        self._tasks_target().make_directory()

    def _target(self) -> Target:
        return target_of(self.location, None, self.storage_options)

    def _tasks_target(self, task: str = "") -> Target:
        base = self._target()
        return _child(base, posixpath.join(STAGING, self.job, task) if task else
                      posixpath.join(STAGING, self.job))

    def writer(self, task_id: Any) -> Writer:
        """A writer of task `task_id`'s archive (a new attempt each call): entries added to it
        become the archive's at `commit`, if its `with` block ends cleanly."""
        name = f"{task_id}.{uuid.uuid4().hex[:8]}"
        if "/" in str(task_id) or str(task_id).startswith("."):
            raise ValueError(f"task id {task_id!r}: no '/' and no leading '.'")
        t = self._tasks_target(name)
        return create(t.directory, fs=getattr(t, "fs", None),  # type: ignore[attr-defined]
                      bucket_capacity=DEFAULT_BUCKET_CAPACITY, **self.settings)

    def finished(self) -> dict[str, str]:
        """Task id -> the directory of the attempt that will be committed."""
        jobs = self._tasks_target()
        found: dict[str, str] = {}
        for name in sorted(_subdirectories(jobs)):
            task = name.rsplit(".", 1)[0]
            if task not in found and newest_manifest_name(_child(jobs, name).list()) is not None:
                found[task] = name
        return found

    def commit(self) -> int:
        """Makes every finished task's entries the archive's in one commit (creating the archive
        if there is none yet); returns its generation. The staging directory goes."""
        target = self._target()
        try:
            tasks = self.finished()
            if target.exists() and newest_manifest_name(target.list()) is not None:
                w = append(self.location, storage_options=self.storage_options)
            else:
                w = create(self.location, storage_options=self.storage_options, **self.settings)
            try:
                generation = _import(w, self._tasks_target(), tasks, self.job, self.replace)
            finally:
                w.close()
            return generation
        finally:
            _remove_tree(self._tasks_target())


def _import(w: Writer, jobs: Target, tasks: dict[str, str], job: str, replace: bool) -> int:
    target = w.target
    base = w._base
    next_part = next_part_id(target.list(), base) - 1  # the last id taken so far
    rows: list[Row] = []
    parts: dict[int, int] = {}
    moves: list[tuple[Target, str, str]] = []
    for task in sorted(tasks):
        t = _child(jobs, tasks[task])
        with Archive(t.storage()) as a:
            renumber = {}
            for part_id, committed in a.manifest.parts.items():
                next_part += 1
                renumber[part_id] = next_part
                parts[next_part] = committed
                moves.append((t, files.part(part_id), files.part(next_part)))
            rows += [Row.of(info, renumber[info.part_id]) for info in a.list()]
    rows.sort(key=lambda r: r.name)
    for row, following in zip(rows, rows[1:]):
        if row.name == following.name:
            raise NameConflict(
                f"{target.describe('')}: '{row.name.decode()}' is added by two tasks")
    for r in rows:  # as adds: no name twice, none both file and directory, replaced if asked
        w._claim(r.name.decode("utf-8", "surrogateescape"), replace, None)
    live_entries, live_bytes = w.live_after(rows)
    if not rows and base is not None:
        return int(base.manifest.generation)
    with target.create(IMPORT_MARKER) as f:  # a death between the moves and the manifest:
        f.write("\n".join(new for _, _, new in moves).encode("utf-8"))  # these are deleted
        target.sync(f)
    for t, old_name, new_name in moves:
        _move(t, old_name, target, new_name)
    m = base.manifest if base else None
    all_parts = {**(m.parts if m else {}), **parts}
    kept = list(m.segments) if m else []
    operation = f"job {job}: {len(rows)} entries from {len(tasks)} tasks"
    done = commit.commit_segment(target, base, w.settings, w.bucket_capacity, rows, all_parts,
                                 kept, len(kept), live_entries, live_bytes, operation,
                                 w._new_dictionary)
    target.delete(IMPORT_MARKER)
    return done.generation


def _codec_name(s: ArchiveSettings) -> str:
    return next(k for k, v in CODECS.items() if v == s.codec)


def _child(t: Target, sub: str) -> Target:
    from .target import FsspecTarget, LocalTarget

    if isinstance(t, FsspecTarget):
        return FsspecTarget(t.fs, posixpath.join(t.directory, sub))
    return LocalTarget(posixpath.join(t.describe(""), sub))


def _subdirectories(t: Target) -> list[str]:
    from .target import FsspecTarget

    if isinstance(t, FsspecTarget):
        t.fs.invalidate_cache(t.directory)
        return [posixpath.basename(e["name"].rstrip("/")) for e in t.fs.ls(t.directory, detail=True)
                if e.get("type") == "directory"]
    import os

    return [e.name for e in os.scandir(t.describe("")) if e.is_dir()] if t.exists() else []


def _move(source: Target, name: str, target: Target, new_name: str) -> None:
    from .target import FsspecTarget

    if isinstance(target, FsspecTarget):
        target.fs.mv(posixpath.join(source.directory, name),  # type: ignore[attr-defined]
                     posixpath.join(target.directory, new_name))
    else:
        import os

        os.rename(source.describe(name), target.describe(new_name))


def _remove_tree(jobs: Target) -> None:
    """Removes a job's staging directory, and the staging root once no job uses it."""
    from .target import FsspecTarget

    if isinstance(jobs, FsspecTarget):
        if jobs.fs.exists(jobs.directory):
            jobs.fs.rm(jobs.directory, recursive=True)
        return
    import os
    import shutil

    shutil.rmtree(jobs.describe(""), ignore_errors=True)
    try:
        os.rmdir(os.path.dirname(jobs.describe("")))
    except OSError:
        pass  # another job stages there


def stage(location: Any, *, job: Optional[str] = None, replace: bool = False,
          storage_options: Optional[dict[str, Any]] = None, **settings: Any) -> Stage:
    """A staging area for parallel writers into the archive at `location` (made at commit if
    missing); `settings` (codec, level, group_size, group_max) for a new archive."""
    return Stage(location, job, replace, storage_options, **settings)


__all__ = ["Stage", "stage"]
