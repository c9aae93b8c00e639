"""Types the modules share, for annotations only (mypy --strict checks them; nothing here runs)."""

from __future__ import annotations

from typing import Callable, Protocol, Union

Buffer = Union[bytes, bytearray, memoryview]
"""Bytes as read: a slice of a mapped file, a fetched range, a joined page."""

ReadAt = Callable[[int, int], bytes]
"""n bytes at an offset of one piece of stored content."""


class Reads(Protocol):
    """Storage as the entry and index readers see it: names for messages, exact positional reads."""

    def describe(self, name: str) -> str: ...

    def read(self, name: str, offset: int, length: int) -> bytes: ...


class Storage(Reads, Protocol):
    """An archive directory: its files listed (name to length), read, and let go."""

    def list(self) -> dict[str, int]: ...

    def close(self) -> None: ...
