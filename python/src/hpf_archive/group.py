"""Groups: small entries stored together in one compressed entry, so that a few hundred bytes
of content do not each pay a frame and a header (FORMAT.md "Group"). A group is read, decoded
and checked whole; the last ones decoded are kept, so neighbours cost no second decompression."""

from __future__ import annotations

import collections
import threading
from typing import Dict, NamedTuple, Optional


from .errors import CorruptArchive
from .wire import Cursor

MAX_GROUP_RAW = 1 << 20
MAX_NAME = 0xFFFF
RECENT_GROUPS = 8


class Member(NamedTuple):
    name: bytes
    position: int  # among the group's members
    content_at: int
    raw_length: int
    mtime_millis: int
    mode: int
    attributes: Dict[str, str]


class Group:
    """A group's raw content (its CRC32C checked by the caller) and its members."""

    __slots__ = ("raw", "members", "by_name")

    def __init__(self, raw: bytes, path: str, offset: int) -> None:
        self.raw = raw
        c = Cursor(raw, f"{path} (group at {offset})")
        members: list[Member] = []
        while not c.done():
            n = c.varint("member name length")
            if n > MAX_NAME:
                raise CorruptArchive(c.path, c.pos, f"a member name of {n} bytes (at most 65535)")
            name = c.raw(n, "member name")
            length = c.varint("member raw length")
            mtime = c.zigzag("member mtime")
            at = c.pos
            mode = c.varint("member mode")
            if mode > 0xFFFFFFFF:
                raise CorruptArchive(c.path, at, f"member mode {mode} is over 32 bits")
            attributes: dict[str, str] = {}
            for _ in range(c.varint("member attribute count")):
                key = c.text(c.varint("attribute key length"), "attribute key")
                if key in attributes:
                    raise CorruptArchive(c.path, c.pos,
                                         f"attribute key '{key}' twice (each key once)")
                attributes[key] = c.text(c.varint("attribute value length"), "attribute value")
            start = c.pos
            c._take(length, "member content")
            members.append(Member(name, len(members), start, length, mtime, mode, attributes))
        if not members:
            raise CorruptArchive(path, offset, "a group with no members")
        self.members = members
        self.by_name: dict[bytes, Member] = {}
        for m in reversed(members):  # the first member of a name wins, as in the Java reader
            self.by_name[m.name] = m

    def content(self, member: Member) -> bytes:
        return self.raw[member.content_at:member.content_at + member.raw_length]


class GroupCache:
    """The last groups decoded, by (part file, offset): a storage keeps one."""

    def __init__(self, size: int = RECENT_GROUPS) -> None:
        self._groups: collections.OrderedDict[tuple[str, int, int], Group] = collections.OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int]) -> Optional[Group]:
        with self._lock:
            g = self._groups.get(key)
            if g is not None:
                self._groups.move_to_end(key)
            return g

    def put(self, key: tuple[str, int, int], group: Group) -> None:
        with self._lock:
            self._groups[key] = group
            while len(self._groups) > self._size:
                self._groups.popitem(last=False)
