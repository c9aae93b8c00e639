"""Read hpf archives without a JVM, written from docs/FORMAT.md alone.

    >>> import hpf_archive as hpf
    >>> a = hpf.open("/data/photos.hpf")
    >>> a.get("2024/01/cat.jpg")
"""

from .archive import Archive, open  # noqa: A004
from .catalog import EntryInfo
from .errors import CorruptArchive, HpfError, NotFound, UnsupportedVersion

__all__ = ["Archive", "open", "EntryInfo", "CorruptArchive", "HpfError", "NotFound",
           "UnsupportedVersion"]
