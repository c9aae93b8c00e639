"""A map-style dataset over an archive's entries, for data loaders (PyTorch's DataLoader, or any
loop with worker processes), with no dependency on any ML framework."""

from __future__ import annotations

import os
from typing import Any, Callable, Optional, Union

from .archive import Archive, open as open_archive

Transform = Callable[[str, bytes], Any]


class Dataset:
    """The entries under `prefix` (all by default), in name order, fixed when it is made.

    `len(ds)`; `ds[i]` is the content of the i-th entry, `ds["name"]` that of a name (through
    the index, as Archive.get), each passed through `transform(name, bytes)` when given. Pickled
    to a worker process (spawn) or inherited by one (fork), it carries its location and entry
    list, not open files or connections: each process opens the archive on first use."""

    def __init__(self, location: str | os.PathLike[str], prefix: str = "",
                 transform: Optional[Transform] = None, *, fs: Any = None,
                 storage_options: dict[str, Any] | None = None) -> None:
        self._location = location
        self._options = (fs, storage_options)
        self._transform = transform
        self._archive: Archive | None = None
        self._pid = os.getpid()
        self._entries = list(self.archive.list(prefix))
        self._index: dict[str, int] | None = None  # name -> position, made when first asked
        self.close()  # nothing opened to list them is carried to a worker

    @property
    def archive(self) -> Archive:
        if self._pid != os.getpid():  # a forked worker: the parent's connections are not ours
            self._archive, self._pid = None, os.getpid()
        if self._archive is None:
            fs, options = self._options
            self._archive = open_archive(self._location, fs=fs, storage_options=options)
        return self._archive

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def names(self) -> list[str]:
        return [e.name for e in self._entries]

    def __getitem__(self, key: Union[int, str]) -> Any:
        data: bytes
        if isinstance(key, str):
            name, data = key, self.archive.get(key)
        else:
            entry = self._entries[key]  # an int, negative from the end; IndexError past it
            name, data = entry.name, self.archive.read(entry)
        return data if self._transform is None else self._transform(name, data)

    def __getitems__(self, keys: list[Union[int, str]]) -> list[Any]:
        """Many items at once (PyTorch's DataLoader asks a batch this way): on remote storage
        the entries are read a run of neighbours per request, not one request each."""
        names = [k for k in keys if isinstance(k, str)]
        by_name = dict(zip(names, self.archive.get_many(names))) if names else {}
        places = [self._entries[k] for k in keys if not isinstance(k, str)]
        by_place = iter(self.archive.read_many(places))
        out = []
        for k in keys:
            if isinstance(k, str):
                found = by_name[k]
                # None: raises NotFound, naming the archive and entry
                name, data = k, found if found is not None else self.archive.get(k)
            else:
                name, data = self._entries[k].name, next(by_place)
            out.append(data if self._transform is None else self._transform(name, data))
        return out

    def index(self, name: str) -> int:
        """The position of a name in this dataset (ValueError if it is not in it)."""
        if self._index is None:
            self._index = {e.name: i for i, e in enumerate(self._entries)}
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"{name!r} is not in this dataset") from None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_archive"] = None  # open files and mappings stay in the process that made them
        state["_index"] = None
        return state

    def close(self) -> None:
        if self._archive is not None:
            self._archive.close()
            self._archive = None
