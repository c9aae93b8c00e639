"""An archive's entries by position, for a loader: the i-th live entry in name order, decoded a
catalog block at a time when first asked for. Opening one costs the manifest and the catalog's
block index, not a listing: where an archive has one segment without tombstones (as a fresh
training set has) its i-th entry is in the catalog block whose row counts cover i, so a worker
decodes only the blocks its positions fall in. Any other archive is listed whole, once."""

from __future__ import annotations

import bisect
from typing import Any

from . import files
from .catalog import Catalog


class Entries:
    """The entries under `prefix` of an open archive, indexable by position."""

    def __init__(self, archive: Any, prefix: str = "") -> None:
        segments = getattr(archive, "manifest", None) and archive.manifest.segments
        self._blocks: list[Any] = []
        if prefix == "" and segments and len(segments) == 1 and segments[0].tombstone_count == 0:
            catalog = Catalog(archive.storage, files.catalog_section(segments[0]))
            self._starts = [0]
            for _, _, rows in catalog.blocks:
                self._starts.append(self._starts[-1] + rows)
            self._length = self._starts[-1]
            self._catalog: Any = catalog
            self._listed: list[Any] = []
        else:  # several segments, tombstones, a prefix, or a server's listing: listed whole
            self._catalog = None
            self._listed = list(archive.list(prefix))
            self._length = len(self._listed)
        self._decoded: dict[int, list[Any]] = {}

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, i: int) -> Any:
        if self._catalog is None:
            return self._listed[i]
        if not 0 <= i < self._length:
            raise IndexError(f"entry {i} of {self._length}")
        b = bisect.bisect_right(self._starts, i) - 1
        rows = self._decoded.get(b)
        if rows is None:
            rows = self._decoded[b] = [info for _, info in self._catalog.block_rows(b)]
        return rows[i - self._starts[b]]

    def rebind(self, archive: Any) -> None:
        """Reads further blocks through `archive` (this process's own opening of the archive)."""
        if self._catalog is not None:
            self._catalog.storage = archive.storage

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_decoded"] = {}  # a worker decodes the blocks it needs
        if self._catalog is not None:
            state["_catalog"] = _Unbound(self._catalog)
        return state


class _Unbound:
    """A catalog carried to another process without its storage (rebound there)."""

    def __init__(self, catalog: Catalog) -> None:
        self.__dict__.update({k: v for k, v in catalog.__dict__.items() if k != "storage"})
        self.storage = None

    def block_rows(self, i: int) -> Any:
        return Catalog.block_rows(self, i)  # type: ignore[arg-type]
