"""Read hpf archives without a JVM, written from docs/FORMAT.md alone.

    >>> import hpf_archive as hpf
    >>> a = hpf.open("/data/photos.hpf")
    >>> a.get("2024/01/cat.jpg")
    >>> with hpf.create("/data/new.hpf") as w:
    ...     w.add("a.txt", b"hello")

The fsspec file system (protocol "hpf") is in hpf_archive.filesystem.
"""

from __future__ import annotations

from .archive import Archive, open  # noqa: A004
from .catalog import EntryInfo
from .dataset import Dataset
from .errors import (ArchiveReplaced, CorruptArchive, HpfError, NotFound, ReadOnly,
                     UnsupportedVersion)
from .write import ArchiveLocked, NameConflict, Stage, Writer, append, create, stage

__all__ = ["Archive", "open", "create", "append", "stage", "Stage", "Writer", "Dataset",
           "StreamingDataset", "EntryInfo", "ArchiveLocked", "CorruptArchive", "HpfError",
           "NameConflict", "NotFound", "ReadOnly", "UnsupportedVersion", "ArchiveReplaced"]


def __getattr__(name: str) -> type:  # StreamingDataset is a torch IterableDataset: torch loads when it is asked
    if name == "StreamingDataset":
        from .streaming import StreamingDataset

        return StreamingDataset
    raise AttributeError(f"module 'hpf_archive' has no attribute {name!r}")
