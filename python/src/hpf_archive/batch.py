"""Many entries read at once from remote storage: the entries of one part are read in offset
order, each run of neighbours with one request (FORMAT.md says nothing of this; it is how a
reader may read, as the Java reader's fetchAll does). On S3 or HDFS a request costs far more
than the bytes between two entries, so a batch of names costs a request per run of neighbours
instead of one per name, and the runs are fetched concurrently where the file system can."""

from __future__ import annotations

from typing import Any

from ._types import Reads

Place = Any
"""A place to read: a tuple (part name, offset, length, ...) whose tail is the caller's."""
Run = tuple[str, int, int, list[Place]]

GAP_BYTES = 1 << 20  # the most bytes between two entries read to save a request
WASTE = 0.1  # and at most this share of the bytes a run is read for
MAX_RUN_BYTES = 8 << 20  # the most one request reads


def runs(places: list[Place]) -> list[Run]:
    """Groups places (part name, offset, length, item), sorted here by part and offset, into
    runs: (part name, start, end, [places]). A gap joins two neighbours only while a run's gaps
    stay within a tenth of the bytes wanted (and GAP_BYTES): a batch then costs at most 1.1 times
    its bytes, in as few requests as that allows. A run reads at most MAX_RUN_BYTES, except a
    place larger than that alone."""
    out: list[Run] = []
    wanted = 0
    for place in sorted(places, key=lambda p: (p[0], p[1])):
        part, off, length = place[0], place[1], place[2]
        if out:
            run_part, start, end, members = out[-1]
            new_end = max(end, off + length)
            gaps = (new_end - start) - (wanted + length)
            if (run_part == part and off - end <= GAP_BYTES and gaps <= WASTE * (wanted + length)
                    and new_end - start <= MAX_RUN_BYTES):
                members.append(place)
                out[-1] = (run_part, start, new_end, members)
                wanted += length if off >= end else max(0, off + length - end)
                continue
        out.append((part, off, off + length, [place]))
        wanted = length
    return out


class RunView:
    """Storage as entry readers see it, with one run's bytes in memory: reads inside the run
    are slices of it, others go to the storage."""

    def __init__(self, storage: Reads, part: str, start: int, data: bytes) -> None:
        self._storage, self._part, self._start, self._data = storage, part, start, data

    def describe(self, name: str) -> str:
        return self._storage.describe(name)

    def read(self, name: str, offset: int, length: int) -> bytes:
        at = offset - self._start
        if name == self._part and at >= 0 and at + length <= len(self._data):
            return self._data[at:at + length]
        return self._storage.read(name, offset, length)
