"""An iterable dataset over one or many archives for training loops: a true global shuffle per
epoch (a seeded permutation of every entry, not a buffer), sharded by rank and by data-loader
worker a batch at a time, each batch read in part order (neighbours in one ranged request, at
most a tenth more bytes than the samples), the next batches read while this one is used, and an
exact resume at any position, whatever the number of workers or ranks, in O(1) time.

The i-th batch of an epoch (from where it resumed) is positions [i·B, (i+1)·B) of the epoch's
permutation; it goes to rank i mod R and, within the rank, to worker (i div R) mod W. PyTorch's
DataLoader takes batches from its workers in turn, so what a loop has seen is always a prefix of
the epoch's order, and `samples_seen` says where to go on."""

from __future__ import annotations

import bisect
import concurrent.futures
import os
from typing import Any, Callable, Iterator, Optional, Sequence

from .archive import open as open_archive
from .errors import CorruptArchive
from .listing import Entries
from .permutation import Permutation

try:  # a torch IterableDataset where torch is installed; a plain iterable otherwise
    from torch.utils.data import IterableDataset as _Base
except ImportError:  # pragma: no cover - exercised where torch is absent
    _Base = object  # type: ignore[assignment,misc]

STATE_VERSION = 1


class StreamingDataset(_Base):  # type: ignore[misc,valid-type]
    """Samples (name, bytes) of every entry under `prefix` of the archives at `locations` (local
    paths, fsspec URLs, or `hpf+http://HOST:PORT/ARCHIVE` for an archive `hpf serve` serves: a
    batch one `_mget`), or `transform(name, bytes)` of each. `batch_size` is the data loader's
    (it sets how positions are shared between workers and ranks); `rank`, `world_size` default to
    torch.distributed's when it is initialised. With `skip_damaged`, an entry that fails its
    checksum is skipped and counted (`skipped`) instead of raising CorruptArchive."""

    def __init__(self, locations: Any, *, batch_size: int = 64, shuffle: bool = False,
                 seed: int = 0, transform: Optional[Callable[[str, bytes], Any]] = None,
                 prefix: str = "", rank: Optional[int] = None, world_size: Optional[int] = None,
                 prefetch: int = 2, skip_damaged: bool = False, fs: Any = None,
                 storage_options: Optional[dict[str, Any]] = None) -> None:
        if batch_size < 1 or prefetch < 0:
            raise ValueError("batch_size is at least 1, prefetch at least 0")
        self._locations = [locations] if isinstance(locations, (str, os.PathLike)) else \
            list(locations)
        self._options = (fs, storage_options)
        self.batch_size, self.shuffle, self.seed = batch_size, shuffle, seed
        self.transform, self.prefetch, self.skip_damaged = transform, prefetch, skip_damaged
        self._rank, self._world_size = rank, world_size
        self.epoch = 0
        self._resume_at = 0
        self.samples_seen = 0  # handed out by this process's iterator since the epoch began
        self.skipped = 0
        self._pid = os.getpid()
        self._archives: list[Any] = []
        self._entries: list[Entries] = []  # by position, a catalog block decoded when needed
        for i in range(len(self._locations)):
            self._entries.append(Entries(self._archive(i), prefix))
        self._starts = [0]
        for e in self._entries:
            self._starts.append(self._starts[-1] + len(e))
        self.close()  # nothing opened to list them is carried to a worker

    # -- the epoch and resuming -------------------------------------------------------------

    def __len__(self) -> int:
        return self._starts[-1]

    def set_epoch(self, epoch: int) -> None:
        """The epoch whose permutation the next iteration follows (from its start, unless a state
        of that epoch was loaded)."""
        if epoch != self.epoch:
            self._resume_at = 0
        self.epoch = epoch

    def state_dict(self, samples_seen: Optional[int] = None) -> dict[str, Any]:
        """Where the loop is: `samples_seen` this epoch, as the loop counts them (steps × batch
        size × world size), or as this process's iterator handed them out (exact without
        data-loader workers)."""
        seen = self._resume_at + self.samples_seen if samples_seen is None else samples_seen
        return {"version": STATE_VERSION, "epoch": self.epoch, "samples_seen": seen,
                "seed": self.seed, "shuffle": self.shuffle, "entries": len(self)}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Goes on from a state: the next iteration starts at its next sample, in O(1) time."""
        if state.get("version") != STATE_VERSION:
            raise ValueError(f"a state of version {state.get('version')}, not {STATE_VERSION}")
        if state["entries"] != len(self) or state["seed"] != self.seed \
                or state["shuffle"] != self.shuffle:
            raise ValueError(f"the state is of another dataset ({state['entries']} entries, seed "
                             f"{state['seed']}, shuffle {state['shuffle']}; this one: "
                             f"{len(self)}, {self.seed}, {self.shuffle})")
        if not 0 <= state["samples_seen"] <= len(self):
            raise ValueError(f"samples_seen {state['samples_seen']} of {len(self)} entries")
        self.epoch = state["epoch"]
        self._resume_at = state["samples_seen"]
        self.samples_seen = 0

    # -- iteration --------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Any]:
        rank, world = self._sharding()
        worker, workers = _worker()
        order = Permutation(len(self), (self.seed << 20) ^ self.epoch) if self.shuffle else None
        start = self._resume_at
        self.samples_seen = 0
        mine = [b for b in range(-(-(len(self) - start) // self.batch_size))
                if b % world == rank and (b // world) % workers == worker]
        batches = ([self._position(order, p) for p in
                    range(start + b * self.batch_size,
                          min(len(self), start + (b + 1) * self.batch_size))] for b in mine)
        if not self._remote():  # a local read is a slice of a mapping: no thread pays for itself
            for batch in batches:
                yield from self._samples(self._read(batch))
        else:
            # The next `prefetch` batches are read while this one is used, each on a thread of its
            # own (a batch's requests go out together: at most a batch's runs in flight each).
            with concurrent.futures.ThreadPoolExecutor(max(1, self.prefetch)) as reader:
                pending: list[Any] = []
                for batch in batches:
                    pending.append(reader.submit(self._read, batch))
                    if len(pending) > self.prefetch:
                        yield from self._samples(pending.pop(0).result())
                for done in pending:
                    yield from self._samples(done.result())
        self._resume_at, self.samples_seen = 0, 0  # the epoch is done: the next one from its start

    def _samples(self, batch: list[Any]) -> Iterator[Any]:
        for name, data in batch:
            self.samples_seen += 1
            if data is None:
                continue  # damaged and skipped (counted)
            yield (name, data) if self.transform is None else self.transform(name, data)

    def _position(self, order: Optional[Permutation], p: int) -> tuple[int, Any]:
        i = order[p] if order is not None else p
        a = bisect.bisect_right(self._starts, i) - 1
        return a, self._entries[a][i - self._starts[a]]

    def _read(self, batch: Sequence[tuple[int, Any]]) -> list[Any]:
        """(name, bytes) of a batch's entries in its order; each archive's read together."""
        out: list[Any] = [None] * len(batch)
        for a in sorted({a for a, _ in batch}):
            at = [i for i, (b, _) in enumerate(batch) if b == a]
            infos = [batch[i][1] for i in at]
            try:
                contents = self._archive(a).read_many(infos)
            except CorruptArchive:
                if not self.skip_damaged:
                    raise
                contents = [self._one(a, info) for info in infos]
            for i, info, data in zip(at, infos, contents):
                out[i] = (info.name, data)
        return out

    def _one(self, a: int, info: Any) -> Optional[bytes]:
        try:
            data: bytes = self._archive(a).read(info)
            return data
        except CorruptArchive:
            self.skipped += 1
            return None

    def _remote(self) -> bool:
        return any(hasattr(self._archive(i).storage, "read_ranges")
                   for i in range(len(self._locations)))

    def _sharding(self) -> tuple[int, int]:
        rank, world = self._rank, self._world_size
        if rank is None or world is None:
            try:
                import torch.distributed as dist

                if dist.is_available() and dist.is_initialized():
                    return dist.get_rank(), dist.get_world_size()
            except ImportError:
                pass
            return 0, 1
        if not 0 <= rank < world:
            raise ValueError(f"rank {rank} of a world of {world}")
        return rank, world

    # -- archives, opened in the process that reads ----------------------------------------

    def _archive(self, i: int) -> Any:
        if self._pid != os.getpid():  # a forked worker: the parent's connections are not ours
            self._archives, self._pid = [], os.getpid()
        while len(self._archives) <= i:
            self._archives.append(None)
        if self._archives[i] is None:
            fs, options = self._options
            location = self._locations[i]
            if isinstance(location, str) and location.startswith(("hpf+http://", "hpf+https://")):
                from .served import ServedArchive

                self._archives[i] = ServedArchive(location, options)
            else:
                self._archives[i] = open_archive(location, fs=fs, storage_options=options)
            if i < len(getattr(self, "_entries", [])):
                self._entries[i].rebind(self._archives[i])  # blocks read through this process's
        return self._archives[i]

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_archives"] = []
        return state

    def close(self) -> None:
        for a in self._archives:
            if a is not None:
                a.close()
        self._archives = []


def _worker() -> tuple[int, int]:
    try:
        from torch.utils.data import get_worker_info
    except ImportError:
        return 0, 1
    info = get_worker_info()
    return (0, 1) if info is None else (info.id, info.num_workers)
