"""Entries in part files: the header, its checks, and the content decoded and checked against
its CRC32C (FORMAT.md "Entry", "Codecs", "Limits"). A PartReader holds what every read of one part
needs (its storage, name, committed length, id and the archive's dictionaries)."""

from __future__ import annotations

import struct
from typing import Any, Callable

from . import chunks, codecs
from ._types import Buffer, Reads
from .catalog import EntryInfo
from .codecs import crc32c
from .errors import CorruptArchive
from .group import MAX_GROUP_RAW, Group, GroupCache, Member
from .wire import Cursor

ENTRY_MAGIC = 0x45465048
MIN_HEADER = 52
MAX_HEADER = 1 << 20
MAX_LZ4_RAW = 64 << 20
CODEC_NONE, CODEC_LZ4, CODEC_ZSTD = 0, 1, 2
GROUP_FLAG = 1
CHUNKED_FLAG = chunks.CHUNKED_FLAG

# magic, header length, codec, flags, name length, dictionary, raw, stored, mtime, mode,
# attribute count: the fixed 46 bytes at the start of every header.
_FIXED = struct.Struct("<IIBBHIQQqIH")
_U32 = struct.Struct("<I")

Dictionaries = Callable[[int], Any]
"""An archive's zstd dictionary by id, or None for an id its manifest does not list."""


class Header:
    """The fields of an entry header whose checksum, bounds and layout were checked."""

    __slots__ = ("length", "codec", "name", "dictionary", "raw_length", "stored_length", "mtime",
                 "mode", "attributes", "group", "chunk_shift")
    length: int
    codec: int
    name: bytes
    dictionary: int
    raw_length: int
    stored_length: int
    mtime: int
    mode: int
    attributes: dict[str, str] | None
    group: bool
    chunk_shift: int


def _header(data: Buffer, off: int, length: int, part: PartReader,
            parse_attributes: bool) -> Header:
    """Checks the header at the start of `data` (an entry of `length` bytes at `off`): magic,
    bounds, checksum, reserved flags, and that name and attributes fill it exactly. The name is
    returned as UTF-8 bytes; attributes are decoded only when asked for (a read of the content
    needs only to know that they are well formed, which the checks below establish)."""
    if len(data) < MIN_HEADER:
        raise CorruptArchive(part.path(), off, "an entry shorter than its header")
    (magic, h, codec, flags, name_length, dictionary, raw_length, stored_length, mtime, mode,
     attribute_count) = _FIXED.unpack_from(data)
    if magic != ENTRY_MAGIC:
        raise CorruptArchive(part.path(), off, "no entry here (bad magic)")
    if h < MIN_HEADER or h > MAX_HEADER or h + 4 > length or h > len(data):
        raise CorruptArchive(part.path(), off, f"entry header length {h} out of bounds")
    if crc32c(data[:h - 4]) != _U32.unpack_from(data, h - 4)[0]:
        raise CorruptArchive(part.path(), off, "entry header checksum mismatch")
    if flags not in (0, GROUP_FLAG, CHUNKED_FLAG):
        raise CorruptArchive(part.path(), off + 9,
                             f"entry flags {flags} (bit 0 for a group or bit 1 for chunks, not both)")
    shift = data[46] | data[47] << 8
    if flags == CHUNKED_FLAG and not chunks.MIN_SHIFT <= shift <= chunks.MAX_SHIFT:
        raise CorruptArchive(part.path(), off + 46,
                             f"chunk size 2^{shift} is outside 2^12 to 2^20")
    if flags != CHUNKED_FLAG and shift:
        raise CorruptArchive(part.path(), off + 46,
                             f"reserved field at entry header offset 46 is {shift}, not 0")
    if flags == CHUNKED_FLAG and not chunks.lengths_possible(codec, raw_length, stored_length, shift):
        raise CorruptArchive(part.path(), off + 16,
                             f"impossible lengths: raw {raw_length}, stored {stored_length}, "
                             f"chunks of 2^{shift}")
    if dictionary and codec != CODEC_ZSTD:
        name = ("none", "lz4")[codec] if codec < 2 else str(codec)
        raise CorruptArchive(part.path(), off + 12,
                             f"dictionary id {dictionary} on an entry stored with {name}"
                             " (only zstd entries name a dictionary)")
    if flags == GROUP_FLAG and (name_length or attribute_count or mtime or mode or raw_length > MAX_GROUP_RAW
                  or stored_length > MAX_GROUP_RAW):
        raise CorruptArchive(part.path(), off,
                             "a group header with a name, metadata or over 1 MiB")
    out = Header()
    out.group = flags == GROUP_FLAG
    out.chunk_shift = shift if flags == CHUNKED_FLAG else 0
    out.length, out.codec, out.dictionary = h, codec, dictionary
    out.raw_length, out.stored_length, out.mtime, out.mode = raw_length, stored_length, mtime, mode
    end = 48 + name_length
    out.name = bytes(data[48:end])
    if attribute_count == 0 and not parse_attributes:
        out.attributes = None
        if end != h - 4:
            raise CorruptArchive(part.path(), off,
                                 "bytes left over between the name and the header CRC")
        return out
    c = Cursor(data, part.path(), base=off, start=end, end=h - 4)
    if end > h - 4:
        raise CorruptArchive(c.path, off, "entry name runs past its header")
    attributes: dict[str, str] = {}
    for _ in range(attribute_count):
        key = c.text(c.u16("attribute key length"), "attribute key")
        if key in attributes:
            raise CorruptArchive(c.path, c.base + c.pos, f"attribute key '{key}' twice (each key once)")
        attributes[key] = c.text(c.u32("attribute value length"), "attribute value")
    if not c.done():
        raise CorruptArchive(c.path, off, "bytes left over between the attributes and the header CRC")
    out.attributes = attributes
    return out


def _shown(key: bytes) -> str:
    """An entry name's bytes for a message, those that are not UTF-8 as \\xNN."""
    return key.decode("utf-8", "backslashreplace")


def _label(key: bytes) -> str:
    return f"entry '{_shown(key)}'" if key else "group"


class CutPart(int):
    """A part's committed length where its file is shorter (cut short by damage): `cut` is where
    the file ends. Entries before the cut read as in an intact part; one past it is lost."""

    cut: int | None

    def __new__(cls, committed: int, cut: int | None) -> CutPart:
        value = super().__new__(cls, committed)
        value.cut = cut
        return value


def readable_part(committed: int, file_length: int | None) -> int:
    """The committed length readers bound a part's entries by: a CutPart where the file is
    shorter than the manifest says, or missing (None)."""
    if file_length is not None and file_length >= committed:
        return committed
    return CutPart(committed, file_length)


def check_codec(path: str, at: int, label: str, codec: int, raw_length: int,
                stored_length: int) -> None:
    """The codec rules a reader checks before it decodes anything, whole or streamed (FORMAT.md
    "Entry"): a known codec; raw = stored for none; an LZ4 block, decoded whole, at most 64 MiB."""
    problem = None
    if codec == CODEC_NONE and raw_length != stored_length:
        problem = "raw and stored lengths differ"
    elif codec == CODEC_LZ4 and raw_length > MAX_LZ4_RAW:
        problem = "lz4 content over 64 MiB"
    elif codec not in (CODEC_NONE, CODEC_LZ4, CODEC_ZSTD):
        problem = f"unknown codec {codec}"
    if problem:
        raise CorruptArchive(path, at, f"{label}: {problem}")


def member_info(g: Group, m: Member, header: Header, part_id: int, off: int,
                length: int) -> EntryInfo:
    """The EntryInfo of a member (FORMAT.md "Group"): its place is its group's; its codec and
    dictionary are the group's; its stored length is its raw length."""
    return EntryInfo(m.name.decode("utf-8", "surrogateescape"), False, m.raw_length, m.raw_length,
                     header.codec, header.dictionary, m.mtime_millis, m.mode, part_id, off, length,
                     m.attributes, m.position, len(g.members))


class PartReader:
    """The entries of one part file, read through `storage` (the archive's, or a view of one
    batch's bytes: see `on`) and bounded by its committed length (a CutPart where the file is
    shorter). Messages name the part's file; they are made only on an error."""

    __slots__ = ("storage", "name", "committed", "part_id", "dictionaries")

    def __init__(self, storage: Reads, name: str, committed: int, part_id: int,
                 dictionaries: Dictionaries) -> None:
        self.storage, self.name, self.committed = storage, name, committed
        self.part_id, self.dictionaries = part_id, dictionaries

    def path(self) -> str:
        return self.storage.describe(self.name)

    def on(self, storage: Reads) -> PartReader:
        """The same part read through another view of its storage."""
        return PartReader(storage, self.name, self.committed, self.part_id, self.dictionaries)

    def _place_checked(self, off: int, length: int) -> None:
        committed = self.committed
        if off < 16 or length < MIN_HEADER + 4 or off + length > committed:
            raise CorruptArchive(self.path(), off,
                                 f"an entry of {length} bytes outside the committed part")
        if isinstance(committed, CutPart):
            if committed.cut is None:
                raise CorruptArchive(self.path(), 0,
                                     "the part file is missing (the manifest lists it)")
            if off + length > committed.cut:
                raise CorruptArchive(self.path(), off,
                                     f"the part file is cut short at {committed.cut} of its "
                                     f"{int(committed)} committed bytes: the entry of {length} "
                                     "bytes here is lost")

    def content_at(self, off: int, length: int, key: bytes) -> bytes | None:
        """The checked content of the entry an index places at `off` (one read of `length`
        bytes), or None if an intact entry of another name is there (a 64-bit hash collision).
        `key` is the name's UTF-8 bytes.

        Written for the common case, an entry without attributes whose every check passes, in as
        few Python operations as the checks allow; anything else goes through _header, which
        names the rule broken."""
        self._place_checked(off, length)
        data = self.storage.read(self.name, off, length)
        (magic, h, codec, flags, name_length, dictionary, raw_length, stored_length, _, _,
         attribute_count) = _FIXED.unpack_from(data)
        if (magic != ENTRY_MAGIC or flags or attribute_count or h != 52 + name_length
                or h + 4 > length or crc32c(data[:h - 4]) != _U32.unpack_from(data, h - 4)[0]
                or data[46] or data[47] or (dictionary and codec != CODEC_ZSTD)):
            header = _header(data, off, length, self, False)  # raises, or it is good
            if header.group:
                g = self.group_at(off, length, header, data)
                m = g.by_name.get(key)
                return None if m is None else g.content(m)
        if data[48:48 + name_length] != key:
            return None
        if h + stored_length + 4 != length:
            raise CorruptArchive(self.path(), off,
                                 f"entry '{_shown(key)}' is not {length} bytes as indexed")
        stored = data[h:length - 4]
        out: bytes | None
        if flags == CHUNKED_FLAG:
            out = chunks.Chunks(lambda at, n: stored[at:at + n], self.path(), off + h,
                                f"entry '{_shown(key)}'", codec, raw_length, stored_length,
                                data[46], self.dictionary_of(off, key, dictionary)).whole()
        elif codec == CODEC_NONE and raw_length == stored_length:
            out = stored
        else:
            out = self.decode(off + h, key, codec, raw_length, dictionary, stored)
        if crc32c(out) != _U32.unpack_from(data, length - 4)[0]:
            raise CorruptArchive(self.path(), off + h,
                                 f"entry '{_shown(key)}': content checksum mismatch")
        return out

    def dictionary_of(self, off: int, key: bytes, dictionary_id: int) -> Any:
        """The zstd dictionary an entry names, or None for none; CorruptArchive if it is not
        listed."""
        if not dictionary_id:
            return None
        d = self.dictionaries(dictionary_id)
        if d is None:
            raise CorruptArchive(self.path(), off,
                                 f"{_label(key)} names dictionary {dictionary_id}, not listed")
        return d

    def header_at(self, off: int, length: int, parse_attributes: bool = False) -> Header:
        """The checked header of the entry at `off`, read apart from its content: the header's
        length first (bounded by the format), then the header."""
        self._place_checked(off, length)
        h: int = _U32.unpack_from(self.storage.read(self.name, off, 8), 4)[0]
        if h > MAX_HEADER or h + 4 > length:
            raise CorruptArchive(self.path(), off, f"entry header length {h} out of bounds")
        return _header(self.storage.read(self.name, off, max(h, MIN_HEADER)), off, length, self,
                       parse_attributes)

    def info_at(self, off: int, length: int, key: bytes | None) -> EntryInfo | None:
        """The EntryInfo of the entry at a place an index gives, from its header alone (a stat,
        or a stream of a large entry, never copies the content), or None on a hash collision.
        With key None, the entry of whatever name is there. A member of a group is found in its
        group, which is read and decoded whole (a group is small)."""
        header = self.header_at(off, length, True)
        if header.group:
            if key is None:
                raise CorruptArchive(self.path(), off, "a group, not an entry")
            g = self.group_at(off, length, header)
            m = g.by_name.get(key)
            return None if m is None else member_info(g, m, header, self.part_id, off, length)
        if header.name != key:
            if key is not None:
                return None
        name = header.name.decode("utf-8", "surrogateescape")
        if header.length + header.stored_length + 4 != length:
            raise CorruptArchive(self.path(), off,
                                 f"entry '{name}' is not {length} bytes as indexed")
        return EntryInfo(name, False, header.raw_length, header.stored_length, header.codec,
                         header.dictionary, header.mtime, header.mode, self.part_id, off, length,
                         header.attributes)

    def read_group(self, off: int, length: int) -> Group | None:
        """The group at a place a walk of the part found, or None if an entry on its own is
        there."""
        self._place_checked(off, length)
        data = self.storage.read(self.name, off, length)
        header = _header(data, off, length, self, False)
        if not header.group:
            return None
        return self.group_at(off, length, header, data)

    def group_at(self, off: int, length: int, header: Header,
                 data: bytes | None = None) -> Group:
        """The group at `off` of `length` bytes whose header was checked: its content decoded
        and checked against its CRC32C, and its members parsed; kept among the storage's recent
        groups."""
        cache: GroupCache | None = getattr(self.storage, "groups", None)
        if cache is None:
            cache = GroupCache()
            setattr(self.storage, "groups", cache)
        found = cache.get((self.name, off, length))
        if found is not None:
            return found
        if header.length + header.stored_length + 4 != length:
            raise CorruptArchive(self.path(), off,
                                 f"a group of {header.length + header.stored_length + 4} bytes, "
                                 f"indexed as {length}")
        if data is None or len(data) < length:
            data = self.storage.read(self.name, off, length)
        raw = self.decode(off + header.length, b"", header.codec, header.raw_length,
                          header.dictionary, data[header.length:length - 4])
        if crc32c(raw) != _U32.unpack_from(data, length - 4)[0]:
            raise CorruptArchive(self.path(), off + header.length,
                                 "group: content checksum mismatch")
        g = Group(bytes(raw), self.path(), off)
        cache.put((self.name, off, length), g)
        return g

    def read_checked(self, info: EntryInfo) -> bytes:
        """The content of the entry a catalog row places in this part: the header must name the
        row's name (else the archive is corrupt) and agree with its lengths; the content must
        decode to its raw length and match its CRC32C."""
        key = info.name.encode("utf-8", "surrogateescape")
        out = self.content_at(info.offset, info.entry_length, key)
        if out is None:
            raise CorruptArchive(self.path(), info.offset,
                                 f"the catalog places '{info.name}' here, the entry names another")
        return out

    def decode(self, at: int, key: bytes, codec: int, raw_length: int, dictionary_id: int,
               stored: bytes) -> bytes:
        """The raw content of an entry's stored bytes, decoded by its codec and bounded by its
        raw length. Messages are made only on an error: this runs for every entry read."""
        out: bytes | None
        if codec == CODEC_LZ4 and raw_length <= MAX_LZ4_RAW:
            out = codecs.lz4_decompress(bytes(stored), raw_length)
        else:
            check_codec(self.path(), at, _label(key), codec, raw_length, len(stored))
            if codec == CODEC_NONE:
                return stored
            d = self.dictionary_of(at, key, dictionary_id)
            # Bounded by the raw length the header claims; a frame decoding past it is corrupt.
            try:
                out = codecs.zstd_decompress(bytes(stored), raw_length, d)
            except ValueError as e:
                raise CorruptArchive(self.path(), at, f"{_label(key)}: {e}")
        if out is None or len(out) != raw_length:
            said = "content does not decompress" if out is None else \
                f"decodes to {len(out)} bytes, not {raw_length}"
            raise CorruptArchive(self.path(), at, f"{_label(key)}: {said}")
        return out
