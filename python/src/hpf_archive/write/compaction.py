"""The merges a writer runs after its commit (FORMAT.md "Commit protocol", "Compaction"): hpf's
size-tiered policy, index only. A run of 4 or more adjacent segments of the same tier (rows within
a factor of 4) merges into one, and past 8 segments the two adjacent ones with the fewest rows
together do; the newest row of each name wins, tombstones kept unless the run starts at the oldest
segment. Records keep pointing at the same parts. Reclaiming the space of replaced and deleted
entries (which copies entries) is left to `hpf compact --reclaim`. Internal to the writer."""

from __future__ import annotations

import heapq
from typing import Optional

from .. import files
from ..archive import Archive
from ..catalog import Catalog
from ..manifest import Segment
from .segment import Row

MERGE_FACTOR = 4
MAX_SEGMENTS = 8


def _rows_of(s: Segment) -> int:
    return s.entry_count + s.tombstone_count


def _tier(s: Segment) -> int:
    return (max(1, _rows_of(s)).bit_length() - 1) // 2  # log base 4


def choose_run(segments: list[Segment]) -> Optional[tuple[int, int]]:
    """The run [from, to) of segments (oldest first) to merge, or None."""
    end = len(segments)
    while end >= MERGE_FACTOR:
        tier = _tier(segments[end - 1])
        start = end - 1
        while start > 0 and _tier(segments[start - 1]) == tier:
            start -= 1
        if end - start >= MERGE_FACTOR:
            return start, end
        end = start
    if len(segments) > MAX_SEGMENTS:
        best, best_rows = len(segments) - 2, None
        for i in range(len(segments) - 2, -1, -1):
            rows = _rows_of(segments[i]) + _rows_of(segments[i + 1])
            if best_rows is None or rows < best_rows:
                best, best_rows = i, rows
        return best, best + 2
    return None


def merged_rows(archive: Archive, start: int, end: int) -> list[Row]:
    """The rows of segments [start, end): the newest row of each name, tombstones kept unless the
    run starts at the oldest segment."""
    segments = archive.manifest.segments
    newest_first = [Catalog(archive.storage, files.catalog_section(segments[i]))
                    for i in range(end - 1, start - 1, -1)]
    streams = [((name, rank, info) for name, info in c.rows_from(b""))
               for rank, c in enumerate(newest_first)]
    out: list[Row] = []
    last = None
    for name, _, info in heapq.merge(*streams, key=lambda t: (t[0], t[1])):
        if name == last:
            continue
        last = name
        if info.deleted:
            if start > 0:
                out.append(Row(bytes(name), deleted=True))
            continue
        out.append(Row.of(info))
    return out
