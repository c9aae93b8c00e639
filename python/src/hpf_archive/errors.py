"""The errors a reader raises: each names the file and offset and says what was expected."""

from __future__ import annotations


class HpfError(Exception):
    """Base of every error this package raises."""


def _printable(text: str) -> str:
    """A message with the bytes of stored names that are not UTF-8 (kept as U+DC80..U+DCFF, see
    names.ESCAPES) shown as \\xNN, so that printing it never fails."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # another lone surrogate (a name asked for, not one read)
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


class CorruptArchive(HpfError):
    """Bytes on disk that break the format: names the file, the offset and the rule broken."""

    def __init__(self, path: str, offset: int, message: str) -> None:
        super().__init__(_printable(f"{path} at offset {offset}: {message}"))
        self.path = path
        self.offset = offset
        self.problem = message


class UnsupportedVersion(HpfError):
    """A file of a newer format version than this package reads."""

    def __init__(self, path: str, version: int) -> None:
        super().__init__(f"{path}: unsupported version {version} (this package reads 1 to 7)")
        self.path = path
        self.version = version


class NotFound(HpfError, KeyError):
    """No entry of that name."""

    def __init__(self, archive: str, name: str) -> None:
        super().__init__(_printable(f"{archive}: no entry '{name}'"))
        self.name = name

    def __str__(self) -> str:
        assert isinstance(self.args[0], str)
        return self.args[0]


class ArchiveReplaced(HpfError):
    """A file a reader's generation names is another file now: the archive was replaced under its
    path after the reader opened it. Nothing was read from the new file; open the archive again."""


class ReadOnly(HpfError, PermissionError):
    """A change asked of an archive through a read-only interface (the fsspec file system)."""
