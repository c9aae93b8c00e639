"""Encodes a manifest (FORMAT.md "Manifest", "Directory") and works out the next one from the
last: generation, history, id marks. Internal to the writer."""

from __future__ import annotations

from typing import Any, Optional

from ..manifest import ArchiveSettings, Manifest, Segment
from .bytes_out import Out, file_header, framed

MAX_HISTORY = 100
MAX_MANIFEST_BYTES = 16 << 20


def encode(m: Manifest) -> bytes:
    s = m.writer_settings
    assert s is not None and m.id_marks is not None
    out = file_header(b"MANI").u64(m.generation).u64(m.commit_millis).text16(m.operation)
    out.u8(1).u8(0).u16(0).u32(m.bucket_capacity)
    out.u8(s.codec).u32(s.group_bytes).u32(s.group_entry_max_bytes).u8(s.zstd_level)
    out.u32(m.id_marks[0]).u32(m.id_marks[1])
    out.u64(m.live_entries).u64(m.live_bytes)
    out.u32(len(m.dictionaries))
    for dictionary_id, d in m.dictionaries.items():
        out.u32(dictionary_id).u64(d.length).u32(d.segment_id).u64(d.offset)
    out.u32(len(m.parts))
    for part_id, committed in m.parts.items():
        out.u32(part_id).u64(committed)
    out.u32(len(m.segments))
    for seg in m.segments:
        _segment(out, seg)
    out.u32(len(m.history))
    for generation, millis, operation, entries in m.history:
        out.u64(generation).u64(millis).text16(operation).u64(entries)
    data = framed(out)
    if len(data) > MAX_MANIFEST_BYTES:
        raise ValueError(f"the manifest would be {len(data)} bytes, over the 16 MiB a manifest "
                         "may have (too many parts, segments or buckets: compact the archive)")
    return data


def _segment(out: Out, seg: Segment) -> None:
    out.u32(seg.segment_id).u64(seg.entry_count).u64(seg.tombstone_count)
    out.u64(seg.catalog_length).u64(seg.file_length)
    out.u8(seg.global_depth).u32(len(seg.buckets))
    for b in seg.buckets:
        out.u32(b.number).u8(b.local_depth).u32(b.key_count).u32(b.meta_length)
        out.u64(b.file_length).u64(b.offset)
    out.u32(len(seg.leaves))
    for depth, bucket in seg.leaves:
        out.u8(depth).u32(bucket)


def next_manifest(base: Optional[Manifest], base_marks: tuple[int, int], commit_millis: int,
                  operation: str, bucket_capacity: int, settings: ArchiveSettings,
                  live_entries: int, live_bytes: int, dictionaries: dict[int, Any], parts: dict[int, int],
                  segments: list[Any]) -> Manifest:
    """The manifest after `base` (None for a new archive): the next generation, the history with
    this commit last, marks raised to the ids it names."""
    generation = (base.generation if base else 0) + 1
    history = list(base.history if base else [])
    history.append((generation, commit_millis, operation, live_entries))
    marks = (max([base_marks[0], *parts]), max([base_marks[1], *(s.segment_id for s in segments)]))
    return Manifest(generation, commit_millis, operation, bucket_capacity, live_entries,
                    live_bytes, dict(dictionaries), dict(parts), list(segments), settings, marks,
                    history[-MAX_HISTORY:])
