"""One commit (FORMAT.md "Commit protocol"): a segment file of the commit's rows, then the next
manifest written under its temporary name, synced, and renamed into place. Internal to the
writer."""

from __future__ import annotations

import time
from typing import Any, Optional

from .. import files
from ..archive import Archive
from ..manifest import ArchiveSettings, Bucket, Dictionary, Manifest, Segment
from . import manifest_out, recovery, segment
from .segment import Row
from .target import Target


def commit_segment(target: Target, base: Optional[Archive], settings: ArchiveSettings,
            bucket_capacity: int, rows: list[Row], parts: dict[int, int], kept: list[Any], at: int,
            live_entries: int, live_bytes: int, operation: str,
            new_dictionary: Optional[tuple[int, bytes]]) -> Manifest:
    """Commits `rows` (in name order) as a segment at index `at` of the segments `kept`, naming
    `parts`; `new_dictionary` is a new archive's, written into the segment file."""
    last = base.manifest if base else None
    marks = recovery.marks_of(base) if base else (0, 0)
    segment_id = marks[1] + 1
    moving = [new_dictionary] if new_dictionary else []
    with target.create(files.segment(segment_id)) as f:
        def sink(data: bytes) -> None:
            f.write(data)

        written = segment.write(sink, segment_id, rows, bucket_capacity, moving)
        target.sync(f)
    dictionaries = dict(last.dictionaries) if last else {}
    for dictionary_id, offset in written.dictionaries.items():
        assert new_dictionary is not None
        dictionaries[dictionary_id] = Dictionary(32 + len(new_dictionary[1]), segment_id, offset)
    segments = list(kept)
    segments.insert(at, _reference(written))
    m = manifest_out.next_manifest(last, marks, int(time.time() * 1000), operation,
                                   bucket_capacity, settings, live_entries, live_bytes,
                                   dictionaries, parts, segments)
    name = "manifest-%010d.hpfm" % m.generation
    target.delete(name + ".tmp")
    with target.create(name + ".tmp") as f:
        f.write(manifest_out.encode(m))
        target.sync(f)
    target.rename(name + ".tmp", name)
    return m


def _reference(w: segment.Written) -> Segment:
    buckets = [Bucket(b.number, b.local_depth, b.key_count, b.meta_length, b.length, b.offset)
               for b in w.buckets]
    return Segment(w.segment_id, w.entry_count, w.tombstone_count, w.catalog_length,
                   w.global_depth, buckets, list(w.leaves), w.file_length)
