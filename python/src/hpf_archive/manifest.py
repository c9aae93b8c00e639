"""The manifest: the generation an archive is at, its parts, segments and dictionaries
(FORMAT.md "Manifest", "Directory")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from ._types import Buffer

from .errors import CorruptArchive
from .wire import Cursor, check_footer, check_header, FOOTER_BYTES, HEADER_BYTES

MANIFEST_NAME = re.compile(r"^manifest-(\d{10})\.hpfm$")
NO_BUCKET = 0xFFFFFFFF


@dataclass
class Bucket:
    number: int
    local_depth: int
    key_count: int
    meta_length: int
    file_length: int  # the bucket's bytes (its file's, or its section's)
    offset: int = 0  # in its segment file (version 4); 0 in a file of its own


@dataclass
class Segment:
    segment_id: int
    entry_count: int
    tombstone_count: int
    catalog_length: int
    global_depth: int
    buckets: List[Bucket]
    leaves: List[Tuple[int, int]]  # (depth, bucket index or NO_BUCKET)
    file_length: int = 0  # of its segment file (version 4); 0: catalog and buckets in own files


@dataclass
class Dictionary:
    length: int
    segment_id: int = 0  # whose segment file holds it (version 4); 0: a file of its own
    offset: int = 0


MAX_GROUP_BYTES = 256 << 10
MIN_ZSTD_LEVEL, MAX_ZSTD_LEVEL = 1, 19  # the zstd levels a writer records (version 6)


@dataclass(frozen=True)
class ArchiveSettings:
    codec: int  # 0 none, 1 lz4, 2 zstd (the entry codec ids)
    group_bytes: int
    group_entry_max_bytes: int
    zstd_level: int = 3  # version 6; manifests of version 5 record none: writers used 3


@dataclass
class Manifest:
    generation: int
    commit_millis: int
    operation: str
    bucket_capacity: int
    live_entries: int
    live_bytes: int
    dictionaries: Dict[int, Dictionary] = field(default_factory=dict)  # id -> it, oldest first
    parts: Dict[int, int] = field(default_factory=dict)  # id -> committed length
    segments: List[Segment] = field(default_factory=list)  # oldest first
    # How writers store new entries (version 5): codec id, group size, largest grouped entry;
    # None in manifests of versions 1 to 4, which did not record them.
    writer_settings: Optional[ArchiveSettings] = None
    # The highest part and segment ids any committed manifest named (version 7); None before.
    id_marks: Optional[Tuple[int, int]] = None
    # The last commits, oldest first and this one last: (generation, time, operation, entries).
    history: List[Tuple[int, int, str, int]] = field(default_factory=list)


def newest_manifest_name(names: Iterable[str]) -> str | None:
    """The file name of the highest generation among a directory's names, or None."""
    best: tuple[int, str] | None = None
    for n in names:
        m = MANIFEST_NAME.match(n)
        if m and (best is None or int(m.group(1)) > best[0]):
            best = (int(m.group(1)), n)
    return None if best is None else best[1]


def writer_settings(c: Cursor, path: str, version: int) -> ArchiveSettings:
    """The writer settings of a manifest of version 5 (codec, groups) or later (and the zstd
    level), refused unless a writer could have made them."""
    at = c.pos
    codec = c.u8("codec")
    group_bytes = c.u32("group size")
    entry_max = c.u32("group entry size")
    level_at = c.pos
    level = c.u8("zstd level") if version >= 6 else 3
    if codec not in (0, 1, 2):
        raise CorruptArchive(path, at, f"unknown codec {codec} in the writer settings")
    if group_bytes > MAX_GROUP_BYTES or entry_max > group_bytes:
        raise CorruptArchive(path, at + 1, f"writer settings: groups of {group_bytes} bytes of "
                             f"entries up to {entry_max} (at most {MAX_GROUP_BYTES}, entries at "
                             "most the group size)")
    if not MIN_ZSTD_LEVEL <= level <= MAX_ZSTD_LEVEL:
        raise CorruptArchive(path, level_at, f"writer settings: zstd level {level} (levels are "
                             f"{MIN_ZSTD_LEVEL} to {MAX_ZSTD_LEVEL})")
    return ArchiveSettings(codec, group_bytes, entry_max, level)


MAX_MANIFEST_BYTES = 16 << 20  # FORMAT.md "Limits": a manifest is read whole
MAX_POINTERS = 1 << 24  # FORMAT.md "Directory": of all a manifest's directories together


def check_size(length: int, path: str) -> None:
    """A manifest over 16 MiB is refused before it is read."""
    if length > MAX_MANIFEST_BYTES:
        raise CorruptArchive(path, 0, f"manifest of {length} bytes is over the 16 MiB "
                                      f"({MAX_MANIFEST_BYTES} bytes) a manifest may have")


def parse(data: Buffer, path: str) -> Manifest:
    check_size(len(data), path)
    version = check_header(data, path, b"MANI")
    placed = version >= 4  # segment files: each section's place is given
    check_footer(data, path)
    c = Cursor(data, path, start=HEADER_BYTES, end=len(data) - FOOTER_BYTES)
    generation = c.u64("generation")
    commit = c.u64("commit time")
    operation = c.utf8(c.u16("operation length"), "operation")
    algorithm = c.u8("name hash algorithm")
    if algorithm != 1:
        raise CorruptArchive(path, c.pos - 1, f"unknown name hash algorithm {algorithm}")
    if c.u8("reserved") != 0 or c.u16("reserved") != 0:
        raise CorruptArchive(path, c.pos - 3, "reserved manifest field is not 0")
    capacity = c.u32("bucket capacity")
    settings = writer_settings(c, path, version) if version >= 5 else None
    marks = (_count(c, "part id mark"), _count(c, "segment id mark")) if version >= 7 else None
    m = Manifest(generation, commit, operation, capacity, c.u64("live entries"),
                 c.u64("live entry bytes"), writer_settings=settings, id_marks=marks)
    for _ in range(bounded(c, c.u32("dictionary count"), 24 if placed else 12, "dictionaries")):
        dictionary_id = c.u32("dictionary id")
        if dictionary_id in m.dictionaries:
            raise CorruptArchive(path, c.pos - 4, f"manifest names dictionary {dictionary_id} twice")
        d = Dictionary(c.u64("dictionary length"))
        if placed:
            d.segment_id, d.offset = c.u32("dictionary segment"), c.u64("dictionary offset")
        m.dictionaries[dictionary_id] = d
    for _ in range(bounded(c, c.u32("part count"), 12, "parts")):
        part_id = c.u32("part id")
        if part_id in m.parts:
            raise CorruptArchive(path, c.pos - 4, f"manifest names part {part_id} twice")
        committed = c.u64("committed length")
        if committed < HEADER_BYTES:
            raise CorruptArchive(path, c.pos - 8, f"part {part_id} committed length {committed} < 16")
        m.parts[part_id] = committed
    segment_ids: set[int] = set()
    pointers = 0
    for _ in range(bounded(c, c.u32("segment count"), 41 if placed else 33, "segments")):
        s = segment(c, path, placed)
        pointers += 1 << s.global_depth
        if pointers > MAX_POINTERS:
            raise CorruptArchive(path, c.pos, f"directories of {pointers} pointers in all, over "
                                              "the 16777216 (2^24) of a manifest")
        if s.segment_id in segment_ids:
            raise CorruptArchive(path, c.pos, f"manifest names segment {s.segment_id} twice")
        segment_ids.add(s.segment_id)
        m.segments.append(s)
    _check_places(m, path)
    for _ in range(bounded(c, c.u32("history count"), 26, "history records")):
        m.history.append((c.u64("history generation"), c.u64("history time"),
                          c.utf8(c.u16("history operation length"), "history operation"),
                          c.u64("history entries")))
    if not c.done():
        raise CorruptArchive(path, c.pos, f"{c.end - c.pos} unexpected bytes before the footer")
    _check_marks(m, path)
    return m


def _count(c: Cursor, what: str) -> int:
    at = c.pos
    value = c.u32(what)
    if value > 0x7FFFFFFF:
        raise CorruptArchive(c.path, at, f"{what} {value} is over 2^31 - 1")
    return value


def _check_marks(m: Manifest, path: str) -> None:
    """FORMAT.md "Manifest": no part or segment the manifest names is above its id mark."""
    if m.id_marks is None:
        return
    parts, segments = m.id_marks
    for part_id in m.parts:
        if part_id > parts:
            raise CorruptArchive(path, 0, f"part {part_id} is above the part id mark {parts}")
    for s in m.segments:
        if s.segment_id > segments:
            raise CorruptArchive(path, 0,
                                 f"segment {s.segment_id} is above the segment id mark {segments}")


def _check_places(m: Manifest, path: str) -> None:
    """Every section of a segment file lies between its header and footer, the catalog first
    (Java's ManifestCodec checks the same)."""
    files: dict[int, int] = {}
    for s in m.segments:
        if not s.file_length:
            if any(b.offset for b in s.buckets):
                raise CorruptArchive(path, 0, f"segment {s.segment_id}: a bucket with an offset")
            continue
        body = s.file_length - FOOTER_BYTES
        catalog_end = HEADER_BYTES + s.catalog_length
        if catalog_end > body:
            raise CorruptArchive(path, 0, f"segment {s.segment_id}: catalog of "
                                          f"{s.catalog_length} bytes does not fit its file")
        for b in s.buckets:
            if b.offset < catalog_end or b.offset + b.file_length > body:
                raise CorruptArchive(path, 0, f"segment {s.segment_id}: bucket {b.number} at "
                                              f"offset {b.offset} does not fit its file")
        files[s.segment_id] = s.file_length
    for i, d in m.dictionaries.items():
        if not d.segment_id:
            if d.offset:
                raise CorruptArchive(path, 0, f"dictionary {i} in its own file has an offset")
            continue
        size = files.get(d.segment_id)
        if size is None or d.offset < HEADER_BYTES or d.offset + d.length > size - FOOTER_BYTES:
            raise CorruptArchive(path, 0, f"dictionary {i} at offset {d.offset} of segment "
                                          f"{d.segment_id} does not fit its file")


def segment(c: Cursor, path: str, placed: bool) -> Segment:
    sid = c.u32("segment id")
    entries = c.u64("entry count")
    tombstones = c.u64("tombstone count")
    catalog_length = c.u64("catalog length")
    file_length = c.u64("segment file length") if placed else 0
    g = c.u8("global depth")
    if g > 24:
        raise CorruptArchive(path, c.pos - 1, f"global depth {g} over 24")
    buckets: list[Bucket] = []
    for i in range(bounded(c, c.u32("bucket count"), 29 if placed else 21, "buckets")):
        at = c.pos
        b = Bucket(c.u32("bucket number"), c.u8("local depth"), c.u32("key count"),
                   c.u32("meta length"), c.u64("bucket length"),
                   c.u64("bucket offset") if placed else 0)
        if b.local_depth > g:
            raise CorruptArchive(path, at, f"bucket {b.number} local depth {b.local_depth}"
                                           f" > global {g}")
        if max(b.number, b.key_count, b.meta_length) >= 1 << 31:
            raise CorruptArchive(path, at, f"bucket descriptor {i} has a number or count over 2^31"
                                           f" (number {b.number}, key count {b.key_count},"
                                           f" meta length {b.meta_length})")
        buckets.append(b)
    leaves: list[tuple[int, int]] = []
    covered = 0
    for _ in range(bounded(c, c.u32("leaf count"), 5, "leaves")):
        depth = c.u8("leaf depth")
        index = c.u32("leaf bucket")
        span = 1 << (g - depth) if depth <= g else 0
        fits = (span > 0 and covered % span == 0 and covered + span <= 1 << g
                and (index == NO_BUCKET
                     or (index < len(buckets) and buckets[index].local_depth == depth)))
        if not fits:
            shown = index - (1 << 32) if index >= 1 << 31 else index  # as Java's int: -1, none
            raise CorruptArchive(path, c.pos - 5,
                                 f"directory leaf (depth {depth}, bucket {shown}) does not fit")
        covered += span
        leaves.append((depth, index))
    if covered != 1 << g:
        raise CorruptArchive(path, c.pos, f"directory leaves cover {covered} of {1 << g} pointers")
    return Segment(sid, entries, tombstones, catalog_length, g, buckets, leaves, file_length)


def bounded(c: Cursor, count: int, min_bytes: int, what: str) -> int:
    """A count read from disk, checked against the bytes left before it sizes a loop."""
    if count * min_bytes > c.end - c.pos:
        raise CorruptArchive(c.path, c.pos, f"{count} {what} cannot fit in the manifest")
    return count
