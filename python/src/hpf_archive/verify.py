"""verify: every byte an archive's newest generation names, every checksum, in bounded memory
(FORMAT.md "Part file", "File footer", "Entry names")."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from . import codecs, files
from .catalog import EntryInfo, merged_ranked
from .entry import ENTRY_MAGIC, GROUP_FLAG, MIN_HEADER
from .errors import CorruptArchive
from .names import normalize, not_utf8, shown
from .wire import check_footer, check_header, HEADER_BYTES

PADDING_CHUNK = 64 << 10
_FIXED_PREFIX = struct.Struct("<II16xQ")  # magic, header length, (codec..raw), stored length

if TYPE_CHECKING:
    from .archive import Archive


def verify(archive: Archive, whole_bytes: int) -> int:
    """Raises CorruptArchive at the first problem; returns the number of live entries.

    1. The footers of the segment files (and of each catalog, bucket and dictionary in them),
       or of the separate index, catalog and dictionary files of older versions; every
       bucket's meta and perfect hash, empty buckets included.
    2. Each part from its header to its committed length, entry by entry (padding and the file
       headers of joined parts skipped):
       header checksum and layout, content decoded and checked, live or dead, streamed when
       large; a group decoded whole and its members parsed. Names not in normal form are
       reported.
    3. Each live catalog row: the entry at its place has its name and length, and the hash
       index finds the name at that same place."""
    storage, manifest = archive.storage, archive.manifest
    for name, length, may_be_longer in files.expected(manifest):
        if not may_be_longer:  # not a part: a footer over the whole file
            check_footer(storage.read(name, 0, length), storage.describe(name))
    sections: list[tuple[files.Section, bytes]] = []  # each section of a segment file is a file of its kind, footer included
    for seg in manifest.segments:
        if seg.file_length:
            sections.append((files.catalog_section(seg), b"CATL"))
            sections += [(files.bucket_section(seg, b), b"BUCK") for b in seg.buckets]
    for i, d in manifest.dictionaries.items():
        if d.segment_id:
            sections.append((files.dictionary_section(i, d), b"DICT"))
    for section, kind in sections:
        data = section.read(storage, 0, section.length)
        check_header(data, section.describe(storage), kind)
        check_footer(data, section.describe(storage))
    for index in archive._indexes:
        index.check_buckets()
    for part_id, committed in sorted(manifest.parts.items()):
        have = archive._part_lengths[part_id]
        if have is None or have < committed:  # read without it, but a damaged part all the same
            raise CorruptArchive(storage.describe(files.part(part_id)), 0,
                                 f"the manifest names it with {committed} bytes; found {have}")
        _walk_part(archive, part_id, committed, whole_bytes)
    _check_no_name_is_a_directory(archive)
    return _check_rows(archive)


def _check_rows(archive: Archive) -> int:
    """Step 3, in time linear in the rows: each segment's index holds as many records as its
    catalog has rows (tombstones included); each live row is checked against the index of the
    segment it comes from (the newest row of a name wins), not by a lookup through every newer
    segment, which made verify rows x segments (an archive crafted with many segments)."""
    storage = archive.storage
    catalogs = archive._catalog_list()  # newest first, as archive._indexes
    for catalog, index in zip(catalogs, archive._indexes):
        records = sum(b.key_count for b in index.segment.buckets)
        # Each block decodes to exactly the rows its index entry counts (else the merge below
        # fails on it), so the counts need no decoding of their own.
        rows = sum(block_rows for _, _, block_rows in catalog.blocks)
        if records != rows:
            raise CorruptArchive(catalog.path, 0, f"index has {records} records, catalog has "
                                                  f"{rows} rows")
    live = 0
    for rank, key, row in merged_ranked(catalogs, b"", b""):
        # The entry at the row's place has its name, and the index of the row's own segment
        # places the name there too.
        part = archive._part(row.part_id, "catalog")
        entry = part.info_at(row.offset, row.entry_length, key)
        if entry is None:
            raise CorruptArchive(part.path(), row.offset,
                                 f"the catalog places '{row.name}' here, the entry names another")
        if _described(entry) != _described(row):  # FORMAT.md "Catalog": the header's, as it is
            raise CorruptArchive(part.path(), row.offset,
                                 f"entry '{row.name}' differs from its catalog row")
        found = archive._indexes[rank].find(key, codecs.xxh64_intdigest(key, 0))
        if found != (row.part_id, row.offset, row.entry_length):
            raise CorruptArchive(storage.describe(""), 0,
                                 f"the index and the catalogs disagree on '{row.name}'")
        live += 1
    return live


def _described(e: EntryInfo) -> tuple[int, int, int, int, int]:
    """What a catalog row says of its entry that the entry's header (or group) says too."""
    return e.raw_length, e.stored_length, e.codec, e.member, e.members


def _check_no_name_is_a_directory(archive: Archive) -> None:
    """An entry d/x beside d/x/y is reported (FORMAT.md "Entry names"): writers refuse such a
    name, archives made before they did may hold one. Every live name is held once, as Java's
    verify holds them."""
    names: set[str] = set()
    nested: list[str] = []
    for row in archive.list():
        names.add(row.name)
        if "/" in row.name:
            nested.append(row.name)
    for name in nested:
        slash = name.find("/")
        while slash >= 0:
            parent = name[:slash]
            if parent in names:
                manifest = "manifest-%010d.hpfm" % archive.manifest.generation
                raise CorruptArchive(archive.storage.describe(manifest), -1,
                                     f"entry '{parent}' is also a directory (of '{name}')")
            slash = name.find("/", slash + 1)


def _walk_part(archive: Archive, part_id: int, committed: int, whole_bytes: int) -> None:
    storage = archive.storage
    reader = archive._part(part_id, "manifest")
    part = reader.name
    path = storage.describe(part)
    check_header(storage.read(part, 0, HEADER_BYTES), path, b"PART")
    p = HEADER_BYTES
    while p < committed:
        head = storage.read(part, p, min(MIN_HEADER, committed - p))
        if head[0] == 0:  # padding: an entry never starts with a zero byte
            ahead = storage.read(part, p, min(PADDING_CHUNK, committed - p))
            p += len(ahead) - len(ahead.lstrip(b"\0"))
            continue
        if head[0] == 0x89:  # the file header of a part joined to this one (HDFS concat)
            try:
                check_header(storage.read(part, p, min(HEADER_BYTES, committed - p)), path, b"PART")
            except CorruptArchive as e:
                raise CorruptArchive(path, p, "no entry here, nor the file header of a joined "
                                              f"part: {e.problem}") from None
            p += HEADER_BYTES
            continue
        if committed - p < MIN_HEADER + 4:
            raise CorruptArchive(path, p, "bytes before the committed length that hold no entry")
        magic, h, stored = _FIXED_PREFIX.unpack_from(head)
        length = h + stored + 4
        if magic != ENTRY_MAGIC:
            raise CorruptArchive(path, p, "no entry here (bad magic)")
        if p + length > committed:
            raise CorruptArchive(path, p, f"an entry of {length} bytes runs past the committed length")
        if head[9] == GROUP_FLAG:  # a group: decoded and checked whole, then each member's name
            group = reader.read_group(p, length)
            assert group is not None  # the flag says so; read_group checked the header
            for m in group.members:
                _check_name(m.name.decode("utf-8", "surrogateescape"), path, p)
            p += length
            continue
        info = reader.info_at(p, length, None)
        assert info is not None  # with no name asked for, whatever entry is there
        _check_name(info.name, path, p)
        if info.raw_length <= whole_bytes and info.stored_length <= whole_bytes:
            archive.read(info)
        else:
            with archive.open_entry(info) as f:
                f.raw.check_to_end()  # type: ignore[attr-defined]  # a CheckedReader's
        p += length


def _check_name(name: str, path: str, at: int) -> None:
    """A stored name must be valid UTF-8 in normal form (FORMAT.md "Entry names")."""
    why = not_utf8(name)
    if why:
        raise CorruptArchive(path, at, f"entry name '{shown(name)}' is not allowed: {why}")
    if normalize(name) != name:
        raise CorruptArchive(path, at, f"entry name '{name}' is not in normal form")
