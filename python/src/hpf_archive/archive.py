"""An open archive: the snapshot of its newest manifest (FORMAT.md "Reading")."""

import io
import struct
import threading

import zstandard

from . import files
from . import manifest as manifests
from .catalog import Catalog, merged
from .entry import read_at, read_checked
from .index import SegmentIndex, name_hash
from .names import normalize
from .errors import CorruptArchive, NotFound
from .storage import LocalStorage
from .stream import EntryStream
from .wire import Cursor, check_footer, check_header, HEADER_BYTES

MAX_DICTIONARY = 16 << 20
WHOLE_BYTES = 1 << 20  # entries up to this size are read whole and checked at once


def open(location):  # noqa: A001 - the package's verb, as in hpf.open(...)
    """Opens the archive directory at a local path."""
    return Archive(LocalStorage(location))


class Archive:
    """Thread-safe: catalogs and dictionaries are loaded once and shared.

    A lookup goes through the segments' hash indexes, newest first (one record read when warm,
    then the entry); listings merge the catalogs."""

    def __init__(self, storage):
        self.storage = storage
        listed = storage.list()
        name = manifests.newest_manifest_name(listed)
        if name is None:
            raise CorruptArchive(storage.describe(""), 0, "no manifest: not an archive")
        self.manifest = manifests.parse(storage.read(name, 0, listed[name]), storage.describe(name))
        m = self.manifest
        for part_id, committed in m.parts.items():
            self._present(listed, files.part(part_id), committed, at_least=True)
        for d, length in m.dictionaries.items():
            self._present(listed, files.dictionary(d), length)
        self._catalogs = []
        self._indexes = [SegmentIndex(storage, seg) for seg in reversed(m.segments)]
        for seg in reversed(m.segments):  # newest first
            cat_name = files.catalog(seg.segment_id)
            self._present(listed, cat_name, seg.catalog_length)
            self._catalogs.append(Catalog(storage, cat_name, seg.catalog_length))
        self._dictionaries = {}
        self._lock = threading.Lock()

    def _present(self, listed, name, length, at_least=False):
        have = listed.get(name)
        if have is None or (have < length if at_least else have != length):
            raise CorruptArchive(self.storage.describe(name), 0,
                                 f"the manifest names it with {length} bytes; found {have}")

    def __len__(self):
        return self.manifest.live_entries

    def __contains__(self, name):
        return self.stat(name) is not None

    def stat(self, name):
        """The entry's metadata (an EntryInfo, from its header), or None."""
        found = self._lookup(name, content=False)
        return None if found is None else found[0]

    def get(self, name):
        """The entry's content, checked against its CRC32C; NotFound if absent."""
        found = self._lookup(name, content=True)
        if found is None:
            raise NotFound(self.storage.describe(""), name)
        return found[1]

    def open(self, name):
        """The content as a seekable binary stream in bounded memory; checked as it is read (see
        stream.EntryStream). NotFound if absent."""
        found = self._lookup(name, content=False)
        if found is None:
            raise NotFound(self.storage.describe(""), name)
        info = found[0]
        if info.raw_length <= WHOLE_BYTES and info.stored_length <= WHOLE_BYTES:
            return io.BytesIO(self.read(info))
        part = files.part(info.part_id)
        content_at = info.offset + info.entry_length - info.stored_length - 4
        (crc,) = struct.unpack("<I", self.storage.read(part, content_at + info.stored_length, 4))
        dictionary = self._dictionary(info.dictionary_id) if info.dictionary_id else None
        if info.dictionary_id and dictionary is None:
            raise CorruptArchive(self.storage.describe(part), info.offset,
                                 f"entry '{info.name}' names dictionary {info.dictionary_id}, not listed")
        return io.BufferedReader(EntryStream(self.storage, part, content_at, info, crc, dictionary))

    def _lookup(self, name, content):
        normal = normalize(name)
        if normal is None:
            return None  # no entry can have a name that does not normalize
        key = normal.encode("utf-8")
        h = name_hash(key)
        for index in self._indexes:
            place = index.find(key, h)
            if place is None:
                continue
            if place == "deleted":
                return None
            part_id, offset, length = place
            committed = self.manifest.parts.get(part_id)
            part = files.part(part_id)
            if committed is None:
                raise CorruptArchive(self.storage.describe(part), 0,
                                     f"the index names part {part_id}, which is not listed")
            found = read_at(self.storage, part, committed, part_id, offset, length, normal,
                            self._dictionary, content)
            if found is not None:
                return found
        return None

    def read(self, info):
        """The checked content of an entry this archive listed or stat'ed."""
        committed = self.manifest.parts.get(info.part_id)
        part = files.part(info.part_id)
        if committed is None:
            raise CorruptArchive(self.storage.describe(part), 0,
                                 f"the catalog names part {info.part_id}, which is not listed")
        return read_checked(self.storage, part, committed, info, self._dictionary)

    def list(self, prefix=""):
        """Live entries whose names start with `prefix`, in byte order, lazily."""
        key = prefix.encode("utf-8")
        return merged(self._catalogs, key, key)

    def verify(self):
        """Reads every byte the manifest names and checks every checksum: the footers of the index,
        catalog and dictionary files, and every live entry's content (streamed when large).
        Returns the number of entries checked; raises CorruptArchive at the first problem."""
        footed = []
        for seg in self.manifest.segments:
            footed.append((files.catalog(seg.segment_id), seg.catalog_length))
            for b in seg.buckets:
                footed.append((files.bucket(seg.segment_id, b.number), b.file_length))
        for d, length in self.manifest.dictionaries.items():
            footed.append((files.dictionary(d), length))
        for name, length in footed:
            check_footer(self.storage.read(name, 0, length), self.storage.describe(name))
        checked = 0
        for info in self.list():
            if info.raw_length <= WHOLE_BYTES and info.stored_length <= WHOLE_BYTES:
                self.read(info)
            else:
                with self.open(info.name) as f:
                    while f.read(1 << 20):
                        pass
            checked += 1
        return checked

    def _dictionary(self, dictionary_id):
        d = self._dictionaries.get(dictionary_id)
        if d is None:
            length = self.manifest.dictionaries.get(dictionary_id)
            if length is None:
                return None
            name = files.dictionary(dictionary_id)
            path = self.storage.describe(name)
            data = self.storage.read(name, 0, length)
            check_header(data, path, b"DICT")
            check_footer(data, path)
            c = Cursor(data, path, start=HEADER_BYTES, end=len(data) - 8)
            if c.u32("dictionary id") != dictionary_id:
                raise CorruptArchive(path, HEADER_BYTES, "the file holds another dictionary")
            n = c.u32("dictionary length")
            if n > MAX_DICTIONARY:
                raise CorruptArchive(path, HEADER_BYTES + 4, f"a dictionary of {n} bytes")
            d = zstandard.ZstdCompressionDict(c.raw(n, "dictionary"))
            with self._lock:
                self._dictionaries[dictionary_id] = d
        return d

    def close(self):
        self.storage.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
