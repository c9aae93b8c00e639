"""What a writer does on opening an archive, before it writes anything (FORMAT.md "Recovery",
"Id marks"): removes what an import or a commit that died left, and commits the complete, checked
entries of the part files a writer that died left above the part id mark, dropping names the
archive has. The same rules as hpf's Java writer. Internal to the writer."""

from __future__ import annotations

import re
from typing import Any, Optional

from .. import files
from ..archive import Archive
from ..entry import PartReader
from ..errors import CorruptArchive, HpfError
from ..manifest import MANIFEST_NAME, parse
from ..wire import HEADER_BYTES, check_header
from .bytes_out import sorted_attributes
from .segment import Row

PART = re.compile(r"^part-(\d{8,})\.hpfp$")
SEGMENT = re.compile(r"^seg-(\d{8,})(-b\d+\.hpfx|\.hpfs|\.hpfc)$")
IMPORT_MARKER = "hpf.import"
MIN_HEADER = 52


def part_id_of(name: str) -> int:
    """The id in a part file's name; 0 for any other name."""
    m = PART.match(name)
    return int(m.group(1)) if m else 0


def next_part_id(names: Any, archive: Optional[Archive]) -> int:
    """A part id above every part file in `names` and the archive's part id mark."""
    mark = marks_of(archive)[0] if archive is not None else 0
    return max([mark, *(part_id_of(n) for n in names)]) + 1


def marks_of(archive: Archive) -> tuple[int, int]:
    """The part and segment id marks of the archive's newest manifest; for a manifest of
    versions 1 to 6, the highest ids of it and of every older manifest still present."""
    m = archive.manifest
    if m.id_marks is not None:
        return int(m.id_marks[0]), int(m.id_marks[1])
    parts = max(m.parts, default=0)
    segments = max((s.segment_id for s in m.segments), default=0)
    storage = archive.storage
    for name, size in storage.list().items():
        if MANIFEST_NAME.match(name) and name != archive.manifest_name:
            try:
                old = parse(storage.read(name, 0, size), storage.describe(name))
            except HpfError:
                continue  # an older manifest that cannot be read names nothing we keep
            parts = max(parts, max(old.parts, default=0))
            segments = max(segments, max((s.segment_id for s in old.segments), default=0))
    return parts, segments


def leftovers(target: Any, archive: Archive) -> list[tuple[int, int]]:
    """Removes an import's and a dead commit's files; returns the orphan part files to scan
    (id, length), in name order."""
    listed = target.list()
    part_mark, segment_mark = marks_of(archive)
    if IMPORT_MARKER in listed:
        for line in target.read(IMPORT_MARKER)[:1 << 20].decode("utf-8", "replace").splitlines():
            m = PART.match(line.strip())
            if m and int(m.group(1)) > part_mark:
                target.delete(line.strip())
        target.delete(IMPORT_MARKER)
        listed = target.list()
    for name in listed:
        m = SEGMENT.match(name)
        if (m and int(m.group(1)) > segment_mark) or (name.startswith("manifest-")
                                                       and name.endswith(".hpfm.tmp")):
            target.delete(name)
    orphans = []
    for name in sorted(listed):
        m = PART.match(name)
        if m and int(m.group(1)) > part_mark:
            orphans.append((int(m.group(1)), listed[name]))
    return orphans


def scan(archive: Archive, part_id: int, length: int) -> tuple[list[Row], int]:
    """The rows of a dead writer's part's complete, checked entries and the end of the last one.
    The walk stops at the first entry that is incomplete or damaged."""
    storage, name = archive.storage, files.part(part_id)
    path = storage.describe(name)
    rows: list[Row] = []
    if length < HEADER_BYTES:
        return rows, 0
    end = p = HEADER_BYTES
    try:
        check_header(storage.read(name, 0, HEADER_BYTES), path, b"PART")
        while p < length:
            first = storage.read(name, p, 1)[0]
            if first == 0:
                p += 1
                continue
            if first == 0x89:
                check_header(storage.read(name, p, min(HEADER_BYTES, length - p)), path, b"PART")
                p += HEADER_BYTES
                continue
            p = _entry(archive, name, part_id, p, length, rows)
            end = p
    except CorruptArchive:
        pass  # cut short by the crash, or damaged: the tail from here is dropped
    return rows, end


def _entry(archive: Archive, name: str, part_id: int, p: int, length: int,
           rows: list[Row]) -> int:
    storage = archive.storage
    head = storage.read(name, p, min(MIN_HEADER, length - p))
    if len(head) < MIN_HEADER:
        raise CorruptArchive(storage.describe(name), p, "an incomplete entry header")
    h = int.from_bytes(head[4:8], "little")
    stored = int.from_bytes(head[24:32], "little")
    size = h + stored + 4
    if p + size > length:
        raise CorruptArchive(storage.describe(name), p, "an incomplete entry")
    part = PartReader(storage, name, length, part_id, archive._dictionary)  # to the file's end
    if head[9] & 1:
        group = part.read_group(p, size)
        assert group is not None  # the flag says so; read_group checked the header
        k = len(group.members)
        for i, m in enumerate(group.members):
            rows.append(Row(bytes(m.name), False, m.raw_length, m.raw_length, head[8],
                            int.from_bytes(head[12:16], "little"), m.mtime_millis, m.mode,
                            part_id, p, size, i, k, sorted_attributes(m.attributes, True)))
        return p + size
    info = part.info_at(p, size, None)
    assert info is not None  # with no name asked for, whatever entry is there
    archive.read(info)  # every byte checked against its CRC32C
    rows.append(Row.of(info))
    return p + size
