"""An open archive: the snapshot of its newest manifest (FORMAT.md "Reading")."""

from __future__ import annotations

import io
import os
import struct
import threading
import warnings
from typing import IO, Any, Callable, Iterator, List, Optional, Sequence, TypeVar, Union

from . import batch
from . import codecs
from . import files
from . import manifest as manifests
from .catalog import Catalog, merged
from .chunks import Chunks
from ._types import Storage
from .batch import Place, RunView
from .catalog import EntryInfo
from .entry import PartReader, readable_part
from .errors import CorruptArchive, NotFound
from .index import SegmentIndex, SlotTables
from .names import lookup_key
from .storage import open_storage
from .stream import CheckedReader, ChunkStream, EntryStream
from .verify import verify
from .wire import Cursor, check_footer, check_header, HEADER_BYTES

MAX_DICTIONARY = 16 << 20
_T = TypeVar("_T")
RangeReads = Callable[[List[tuple[str, int, int]]], List[bytes]]
WHOLE_BYTES = 1 << 20  # entries up to this size are read whole and checked at once
CHUNK_BYTES = 1 << 20  # what a stream reads from storage at a time


def open(location: str | os.PathLike[str], *, fs: Any = None,  # noqa: A001 - as hpf.open(...)
         storage_options: dict[str, Any] | None = None) -> Archive:
    """Opens the archive directory at a local path or an fsspec URL ("hdfs://nn:8020/x.hpf",
    "s3://bucket/x.hpf", "memory://x.hpf"), or at a path on the fsspec file system `fs`."""
    return Archive(open_storage(location, fs, storage_options))


class Archive:
    """A reader of one generation of an archive, safe to share between threads: catalogs,
    bucket metadata and dictionaries are loaded once, on first use, and shared.

    A lookup goes through the segments' hash indexes, newest first (one record read when warm,
    then the entry); listings merge the catalogs. Opening reads the manifest and lists the
    directory, nothing else, so it costs the same for ten entries or a billion."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        if codecs.MISSING:
            warnings.warn(f"hpf_archive: {', '.join(codecs.MISSING)} not installed; "
                          "using the slow pure-Python fallbacks (zstd entries cannot be read "
                          "without zstandard)", RuntimeWarning, stacklevel=3)
        listed = storage.list()
        versions = getattr(storage, "listed_versions", {})
        if hasattr(storage, "pin"):
            storage.pin(versions)  # read only the files listed now, whatever comes later
        name = manifests.newest_manifest_name(listed)
        if name is None:
            raise CorruptArchive(storage.describe(""), 0, "no manifest: not an archive")
        manifests.check_size(listed[name], storage.describe(name))
        self.manifest = manifests.parse(storage.read(name, 0, listed[name]), storage.describe(name))
        self.manifest_name = name
        self._manifest_version = versions.get(name)
        m = self.manifest
        for file_name, length, at_least in files.expected(m):
            if not at_least:  # a part missing or cut short is a damaged part, not a damaged
                self._present(listed, file_name, length)  # archive: its lost entries say so
        self._part_lengths = {p: listed.get(files.part(p)) for p in m.parts}
        self._parts = {p: PartReader(storage, files.part(p),
                                     readable_part(committed, self._part_lengths[p]), p,
                                     self._dictionary)
                       for p, committed in m.parts.items()}
        tables = SlotTables()
        self._indexes = [SegmentIndex(storage, seg, tables) for seg in reversed(m.segments)]
        self._catalogs: list[Catalog] | None = None  # opened on the first listing
        self._dictionaries: dict[int, Any] = {}
        self._lock = threading.Lock()

    def is_current(self) -> bool:
        """Whether this is still the archive's newest generation (one directory listing): no
        newer commit, and no other archive put in its place (where the storage tells files'
        versions: local disk)."""
        listed = self.storage.list()
        if manifests.newest_manifest_name(listed) != self.manifest_name:
            return False
        version = getattr(self.storage, "listed_versions", {}).get(self.manifest_name)
        return version is None or version == self._manifest_version

    def _present(self, listed: dict[str, int], name: str, length: int,
                 at_least: bool = False) -> None:
        have = listed.get(name)
        if have is None or (have < length if at_least else have != length):
            raise CorruptArchive(self.storage.describe(name), 0,
                                 f"the manifest names it with {length} bytes; found {have}")

    def __len__(self) -> int:
        return self.manifest.live_entries

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        return self.stat(name) is not None

    def stat(self, name: str) -> EntryInfo | None:
        """The entry's metadata (an EntryInfo, from its header), or None."""
        return self._info(name)

    def get(self, name: str) -> bytes:
        """The entry's content, checked against its CRC32C; NotFound if absent."""
        found = self._content(name)
        if found is None:
            raise NotFound(self.storage.describe(""), name)
        return found

    def open(self, name: str) -> IO[bytes]:
        """The content as a seekable binary stream in bounded memory; checked as it is read (see
        stream.EntryStream). NotFound if absent."""
        info = self._info(name)
        if info is None:
            raise NotFound(self.storage.describe(""), name)
        return self.open_entry(info)

    def open_entry(self, info: EntryInfo) -> IO[bytes]:
        """A stream of an entry this archive listed or stat'ed."""
        if info.raw_length <= WHOLE_BYTES and info.stored_length <= WHOLE_BYTES:
            return io.BytesIO(self.read(info))
        reader = self._part(info.part_id, "catalog")
        part = reader.name
        header = reader.header_at(info.offset, info.entry_length)
        content_at_offset = info.offset + header.length
        trailer_at = content_at_offset + header.stored_length
        dictionary = reader.dictionary_of(info.offset,
                                          info.name.encode("utf-8", "surrogateescape"),
                                          header.dictionary)
        if header.chunk_shift:
            chunks = Chunks(lambda at, n: self.storage.read(part, content_at_offset + at, n),
                            self.storage.describe(part), content_at_offset, f"entry '{info.name}'",
                            header.codec, header.raw_length, header.stored_length,
                            header.chunk_shift, dictionary)
            return CheckedReader(ChunkStream(chunks, lambda: self._crc_at(part, trailer_at)),
                                 CHUNK_BYTES)
        return CheckedReader(EntryStream(self.storage, part, content_at_offset, info,
                                         self._crc_at(part, trailer_at), dictionary),
                             CHUNK_BYTES)

    def _crc_at(self, part: str, at: int) -> int:
        crc: int = struct.unpack("<I", self.storage.read(part, at, 4))[0]
        return crc

    def _part(self, part_id: int, named_by: str) -> PartReader:
        found = self._parts.get(part_id)
        if found is None:
            raise CorruptArchive(self.storage.describe(files.part(part_id)), 0,
                                 f"the {named_by} names part {part_id}, which is not listed")
        return found

    def _content(self, name: str) -> bytes | None:
        """The checked content of a name, or None."""
        return self._lookup(name, PartReader.content_at)

    def _info(self, name: str) -> EntryInfo | None:
        """The EntryInfo of a name (from its entry's header), or None."""
        return self._lookup(name, PartReader.info_at)

    def _lookup(self, name: str,
                found_at: Callable[[PartReader, int, int, bytes], Optional[_T]]) -> _T | None:
        """What found_at says of the entry the indexes place a name at (None: another name's
        entry is there, a 64-bit hash collision; the search goes on), or None."""
        key = lookup_key(name)
        if key is None:
            return None  # no entry can have a name that does not normalize
        h = codecs.xxh64_intdigest(key, 0)
        for index in self._indexes:
            place = index.find(key, h)
            if place is None:
                continue
            if isinstance(place, str):  # DELETED
                return None
            part_id, offset, length = place
            part = self._parts.get(part_id) or self._part(part_id, "index")
            found = found_at(part, offset, length, key)
            if found is not None:
                return found
        return None

    def read(self, info: EntryInfo) -> bytes:
        """The checked content of an entry this archive listed or stat'ed."""
        return self._part(info.part_id, "catalog").read_checked(info)

    def get_many(self, names: Sequence[str]) -> List[bytes | None]:
        """The checked contents of many names, in their order (None for a name no entry has).
        On remote storage (fsspec) the entries of a part are read in offset order, each run of
        neighbours with one request, the runs concurrently where the file system can; locally
        each is a slice of a mapping anyway. Holds the contents and one run at a time (8 MiB at
        most) in memory."""
        read_ranges: RangeReads | None = getattr(self.storage, "read_ranges", None)
        if read_ranges is None:
            return [self._content(name) for name in names]
        out: List[bytes | None] = [None] * len(names)
        places: List[Place] = []
        for i, name in enumerate(names):
            key = lookup_key(name)
            if key is None:
                continue
            h = codecs.xxh64_intdigest(key, 0)
            for index in self._indexes:
                place = index.find(key, h)
                if place is None:
                    continue
                if not isinstance(place, str):  # DELETED
                    part_id, offset, length = place
                    part = self._parts.get(part_id) or self._part(part_id, "index")
                    places.append((part.name, offset, length, (i, key, part)))
                break

        def content(view: RunView, offset: int, length: int, item: Any) -> None:
            i, key, part = item
            found = part.on(view).content_at(offset, length, key)
            # None: an entry of another name with the same hash is there; search on.
            out[i] = found if found is not None else self._content(names[i])

        self._read_runs(read_ranges, places, content)
        return out

    def read_many(self, infos: Sequence[EntryInfo]) -> List[bytes]:
        """The checked contents of many entries this archive listed or stat'ed, in their order,
        read as get_many reads them."""
        read_ranges: RangeReads | None = getattr(self.storage, "read_ranges", None)
        if read_ranges is None:
            return [self.read(info) for info in infos]
        out: List[bytes] = [b""] * len(infos)
        places: List[Place] = []
        for i, info in enumerate(infos):
            part = self._part(info.part_id, "catalog")
            places.append((part.name, info.offset, info.entry_length, (i, info, part)))

        def content(view: RunView, offset: int, length: int, item: Any) -> None:
            i, info, part = item
            out[i] = part.on(view).read_checked(info)

        self._read_runs(read_ranges, places, content)
        return out

    def _read_runs(self, read_ranges: RangeReads, places: List[Place],
                   visit: Callable[[RunView, int, int, Any], None]) -> None:
        """Reads the places' runs of neighbours, a batch of requests at a time, and hands each
        place with a view of its run to visit(view, offset, length, item)."""
        runs = batch.runs(places)
        at = 0
        while at < len(runs):
            taken: List[batch.Run] = []
            size = 0
            while at < len(runs):
                length = runs[at][2] - runs[at][1]
                if taken and size + length > batch.MAX_RUN_BYTES:
                    break
                taken.append(runs[at])
                size += length
                at += 1
            ranges = [(part, start, end) for part, start, end, _ in taken]
            fetched = read_ranges(ranges)
            for (part, start, _, members), data in zip(taken, fetched):
                view = batch.RunView(self.storage, part, start, data)
                for p in members:
                    visit(view, p[1], p[2], p[3])

    def list(self, prefix: str = "") -> Iterator[EntryInfo]:
        """Live entries whose names start with `prefix`, in byte order, lazily."""
        key = prefix.encode("utf-8")
        return merged(self._catalog_list(), key, key)

    def children(self, directory: str = "") -> Iterator[Union[EntryInfo, str]]:
        """What a directory holds, directories being derived from names as in the Java hpf://
        file system: EntryInfo for each entry directly in it, and the name (a str) of each
        subdirectory, in byte order. A subdirectory's entries are skipped by starting the
        catalogs again past its prefix, never read through."""
        prefix = (directory.strip("/") + "/").lstrip("/").encode("utf-8")
        catalogs = self._catalog_list()
        start: bytes | None = prefix
        # An entry that is also a directory (d/x beside d/x/y, which writers refuse but older
        # archives may hold) is shown once, as the directory. Its directory's names come after
        # it with only names like d/x-1 (a byte below '/' after d/x) between, so a file is held
        # until the next name: where that name starts with the file's, the catalogs are asked
        # whether the directory exists (rare: one seek); a file is never held longer.
        held: EntryInfo | None = None
        while start is not None:
            after, start = start, None
            for info in merged(catalogs, prefix, after):
                name = info.name.encode("utf-8", "surrogateescape")
                slash = name.find(b"/", len(prefix))
                sub = name if slash < 0 else name[:slash]
                if held is not None:
                    mine = held.name.encode("utf-8", "surrogateescape")
                    if sub != mine and not (name.startswith(mine) and self._has_names_under(mine)):
                        yield held
                    held = None
                if slash < 0:
                    held = info
                    continue
                yield sub.decode("utf-8", "surrogateescape")
                start = sub + b"0"  # '0' follows '/': the first name past the directory
                break
        if held is not None:
            yield held

    def _has_names_under(self, directory: bytes) -> bool:
        """Whether a live name starts with directory + '/' (directory: UTF-8 bytes)."""
        under = directory + b"/"
        return next(iter(merged(self._catalog_list(), under, under)), None) is not None

    def _catalog_list(self) -> List[Catalog]:
        catalogs = self._catalogs
        if catalogs is None:
            catalogs = [Catalog(self.storage, files.catalog_section(seg))
                        for seg in reversed(self.manifest.segments)]  # newest first
            self._catalogs = catalogs
        return catalogs

    def verify(self) -> int:
        """Reads every byte the newest generation names and checks every checksum (verify.py).
        Returns the number of live entries; raises CorruptArchive at the first problem."""
        return verify(self, WHOLE_BYTES)

    def _dictionary(self, dictionary_id: int) -> Any:
        d = self._dictionaries.get(dictionary_id)
        if d is None:
            ref = self.manifest.dictionaries.get(dictionary_id)
            if ref is None:
                return None
            section = files.dictionary_section(dictionary_id, ref)
            path = section.describe(self.storage)
            data = section.read(self.storage, 0, section.length)
            check_header(data, path, b"DICT")
            check_footer(data, path)
            c = Cursor(data, path, start=HEADER_BYTES, end=len(data) - 8)
            if c.u32("dictionary id") != dictionary_id:
                raise CorruptArchive(path, HEADER_BYTES, "the file holds another dictionary")
            n = c.u32("dictionary length")
            if n > MAX_DICTIONARY:
                raise CorruptArchive(path, HEADER_BYTES + 4, f"a dictionary of {n} bytes")
            d = codecs.zstd_dictionary(c.raw(n, "dictionary"))
            with self._lock:
                self._dictionaries[dictionary_id] = d
        return d

    def close(self) -> None:
        self.storage.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

