"""The names of an archive's files (FORMAT.md "File names"; manifests are in manifest.py), and
where each catalog, bucket and dictionary is (FORMAT.md "Segment file")."""

from __future__ import annotations

from typing import Any, NamedTuple

from ._types import Reads


def part(part_id: int) -> str:
    return "part-%08d.hpfp" % part_id


def segment(segment_id: int) -> str:
    return "seg-%08d.hpfs" % segment_id


def catalog(segment_id: int) -> str:
    return "seg-%08d.hpfc" % segment_id


def bucket(segment_id: int, number: int) -> str:
    return "seg-%08d-b%06d.hpfx" % (segment_id, number)


def dictionary(dictionary_id: int) -> str:
    return "dict-%08d.hpfd" % dictionary_id


class Section(NamedTuple):
    """A catalog, a bucket or a dictionary: a file of its own (versions 1 to 3) or a range of its
    segment file (version 4). Its bytes are the same either way; offsets in its messages count
    from its start."""
    file: str
    offset: int
    length: int
    label: str | None = None  # what it is, for a section of a segment file ("bucket 3")

    def describe(self, storage: Reads) -> str:
        path = storage.describe(self.file)
        return path if self.label is None else f"{path} ({self.label} from byte {self.offset})"

    def read(self, storage: Reads, at: int, n: int) -> bytes:
        """n bytes at `at` of the section."""
        return storage.read(self.file, self.offset + at, n)


def catalog_section(seg: Any) -> Section:
    if seg.file_length:
        return Section(segment(seg.segment_id), 16, seg.catalog_length, "catalog")
    return Section(catalog(seg.segment_id), 0, seg.catalog_length)


def bucket_section(seg: Any, b: Any) -> Section:
    if seg.file_length:
        return Section(segment(seg.segment_id), b.offset, b.file_length, f"bucket {b.number}")
    return Section(bucket(seg.segment_id, b.number), 0, b.file_length)


def dictionary_section(dictionary_id: int, d: Any) -> Section:
    if d.segment_id:
        return Section(segment(d.segment_id), d.offset, d.length, f"dictionary {dictionary_id}")
    return Section(dictionary(dictionary_id), 0, d.length)


def expected(manifest: Any) -> list[tuple[str, int, bool]]:
    """(file name, length, may be longer) of every file the manifest names."""
    out = [(part(p), committed, True) for p, committed in manifest.parts.items()]
    out += [(dictionary(i), d.length, False) for i, d in manifest.dictionaries.items()
            if not d.segment_id]
    for seg in manifest.segments:
        if seg.file_length:
            out.append((segment(seg.segment_id), seg.file_length, False))
        else:
            out.append((catalog(seg.segment_id), seg.catalog_length, False))
            out += [(bucket(seg.segment_id, b.number), b.file_length, False) for b in seg.buckets]
    return out
