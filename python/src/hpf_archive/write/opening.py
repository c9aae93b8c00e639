"""`create` and `append`: a writer of a new archive, or of one that exists, with the settings
its writers use (FORMAT.md "Manifest": writer settings) and what recovery leaves to commit."""

from __future__ import annotations

from typing import Any, Optional

from ..archive import Archive
from ..manifest import ArchiveSettings, newest_manifest_name
from . import lock, recovery
from .entries import CODECS, LZ4, ZSTD
from .segment import Row
from .target import Target, target_of
from .writer import (DEFAULT_BUCKET_CAPACITY, GROUP_BYTES, GROUP_MAX, SOLID_GROUP_BYTES,
                     SOLID_GROUP_MAX, Writer)


def create(location: Any, *, codec: Optional[str] = None, level: Optional[int] = None,
           group_size: Optional[int] = None, group_max: Optional[int] = None,
           solid: bool = False, dictionary: Optional[bytes] = None,
           bucket_capacity: int = DEFAULT_BUCKET_CAPACITY, fs: Any = None,
           storage_options: Optional[dict[str, Any]] = None) -> Writer:
    """A writer of a new archive at a local path or an fsspec URL. Raises if an archive (or
    anything else) is there already. Defaults as `hpf create`: lz4 on local disk, zstd elsewhere
    (and with `level` or `solid`); groups of 2 KiB of files up to 512 bytes (`solid`: 256 KiB of
    files up to 64 KiB); `dictionary`: a zstd dictionary to store and compress with."""
    target = target_of(location, fs, storage_options)
    present = target.list() if target.exists() else {}
    if set(present) - {lock.FILE_NAME}:
        raise FileExistsError(f"{target.describe('')}: already exists and is not empty (append to "
                              "an archive with hpf_archive.append)")
    chosen = _codec(codec, ZSTD if level is not None or solid or not target.local else LZ4)
    if dictionary is not None and chosen != ZSTD:
        raise ValueError("a dictionary is for the zstd codec")
    if solid and group_size is None:
        group_size, group_max = SOLID_GROUP_BYTES, SOLID_GROUP_MAX
    settings = _settings(chosen, group_size, group_max, level,
                         ArchiveSettings(chosen, GROUP_BYTES, GROUP_MAX, 3))
    target.make_directory()
    held = lock.acquire(target)
    try:
        if newest_manifest_name(target.list()) is not None:
            raise FileExistsError(f"{target.describe('')}: another writer created an archive here")
        return Writer(target, None, settings, bucket_capacity,
                      (1, bytes(dictionary)) if dictionary else None, held)
    except BaseException:
        held.release()
        raise


def append(location: Any, *, codec: Optional[str] = None, level: Optional[int] = None,
           group_size: Optional[int] = None, group_max: Optional[int] = None,
           fs: Any = None, storage_options: Optional[dict[str, Any]] = None) -> Writer:
    """A writer of the archive at `location`, which must exist. New entries are stored as the
    archive's writers store them unless told otherwise (and then the next commit records it)."""
    target = target_of(location, fs, storage_options)
    if not target.exists() or newest_manifest_name(target.list()) is None:
        raise FileNotFoundError(f"{target.describe('')}: no archive here (make one with "
                                "hpf_archive.create)")
    held = lock.acquire(target)
    try:
        base = _recovered(target, held)
        m = base.manifest
        recorded = m.writer_settings or ArchiveSettings(ZSTD, GROUP_BYTES, GROUP_MAX, 3)
        chosen = _codec(codec, recorded.codec) if level is None or codec else ZSTD
        settings = _settings(chosen, group_size, group_max, level, recorded)
        dictionary = None
        if chosen == ZSTD and m.dictionaries:
            newest = list(m.dictionaries)[-1]
            dictionary = (newest, _dictionary_bytes(base, newest))
        w = Writer(target, base, settings, m.bucket_capacity, dictionary, held)
        return w
    except BaseException:
        held.release()
        raise


def _codec(asked: Optional[str], default: int) -> int:
    if asked is None:
        return default
    if asked not in CODECS:
        raise ValueError(f"unknown codec {asked!r}: none, lz4 or zstd")
    return CODECS[asked]


def _settings(codec: int, group_size: Optional[int], group_max: Optional[int],
              level: Optional[int], base: ArchiveSettings) -> ArchiveSettings:
    if (group_size is None) != (group_max is None):
        raise ValueError("group_size and group_max go together")
    size = base.group_bytes if group_size is None else group_size
    largest = base.group_entry_max_bytes if group_max is None else group_max
    if not 0 <= size <= 256 << 10 or not 0 <= largest <= size:
        raise ValueError(f"groups of {size} bytes of entries up to {largest}: the group size is "
                         "0 to 262144, the largest grouped entry at most the group size")
    chosen_level = base.zstd_level if level is None else level
    if not 1 <= chosen_level <= 19:
        raise ValueError(f"zstd level {chosen_level}: levels are 1 to 19")
    return ArchiveSettings(codec, size, largest, chosen_level)


def _dictionary_bytes(base: Archive, dictionary_id: int) -> bytes:
    from .. import files
    from ..wire import HEADER_BYTES

    ref = base.manifest.dictionaries[dictionary_id]
    base._dictionary(dictionary_id)  # checks the section: its header, footer, id and length
    section = files.dictionary_section(dictionary_id, ref)
    return bytes(section.read(base.storage, HEADER_BYTES + 8, ref.length - HEADER_BYTES - 16))


def _recovered(target: Target, held: lock.Lock) -> Archive:
    """The archive after recovery: leftovers of dead writers removed, their good entries
    committed ("recover N entries")."""
    base = Archive(target.storage())
    orphans = recovery.leftovers(target, base)
    if not orphans:
        return base
    base.close()
    base = Archive(target.storage())
    rows: list[Row] = []
    parts: dict[int, int] = {}
    seen: set[bytes] = set()
    for part_id, length in orphans:
        found, end = recovery.scan(base, part_id, length)
        keep = []
        for r in found:
            name = r.name.decode("utf-8", "surrogateescape")
            if r.name not in seen and base.stat(name) is None:
                keep.append(r)
            seen.add(r.name)
        if keep:
            rows.extend(keep)
            parts[part_id] = end
        else:
            target.delete(f"part-{part_id:08d}.hpfp")
    if not rows:
        return base
    w = Writer(target, base, base.manifest.writer_settings or ArchiveSettings(ZSTD, GROUP_BYTES,
               GROUP_MAX, 3), base.manifest.bucket_capacity, None, _NotHeld())
    w.commit_recovered(rows, parts)
    return w._base  # type: ignore[return-value]


class _NotHeld(lock.Lock):
    """The lock as seen by the recovery's commit: its opener keeps holding it."""

    def __init__(self) -> None:
        super().__init__(None, None, None)  # type: ignore[arg-type]


__all__ = ["create", "append"]
