"""Many entries at once: Archive.get_many and read_many, and Dataset.__getitems__ (what
PyTorch's DataLoader calls for a batch), against the model and against one get per name; on
remote storage a run of neighbouring entries is one request."""

import random
import shutil

import fsspec.implementations.memory
import pytest

import hpf_archive as hpf


class CountingMemory(fsspec.implementations.memory.MemoryFileSystem):
    """fsspec's memory file system, counting the ranges and bytes read of part files."""

    cachable = False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.part_ranges = 0
        self.part_bytes = 0
        self.range_calls = 0

    def cat_ranges(self, paths, starts, ends, **kwargs):
        self.range_calls += 1  # each range is counted by the cat_file fsspec reads it with
        return super().cat_ranges(paths, starts, ends, **kwargs)

    def cat_file(self, path, start=None, end=None, **kwargs):
        data = super().cat_file(path, start=start, end=end, **kwargs)
        if path.endswith(".hpfp"):
            self.part_ranges += 1
            self.part_bytes += len(data)
        return data


def remote_copy(archive, where):
    memory = CountingMemory()
    for p in archive.iterdir():
        memory.pipe_file(f"/{where}/{archive.name}/{p.name}", p.read_bytes())
    return memory, f"/{where}/{archive.name}"


@pytest.fixture(scope="module")
def changed(tree, tmp_path_factory, java_hpf):
    """The tree's archive with some entries deleted: (archive, {name: bytes} now, deleted)."""
    _, archive, files = tree
    copy = tmp_path_factory.mktemp("changed") / archive.name
    shutil.copytree(archive, copy)
    deleted = sorted(files)[::9]
    java_hpf("rm", copy, *deleted)
    live = {n: b for n, b in files.items() if n not in deleted}
    return copy, live, deleted


def asked(live, deleted):
    names = list(live) + deleted + ["no/such/name", "../escape", ""] + list(live)[:3]
    random.Random(4).shuffle(names)
    return names


def test_get_many_gives_what_get_gives_locally_and_remotely(changed):
    archive, live, deleted = changed
    names = asked(live, deleted)
    expected = [live.get(n) for n in names]
    with hpf.open(archive) as local:
        assert local.get_many(names) == expected
    memory, path = remote_copy(archive, "many")
    with hpf.open(path, fs=memory) as remote:
        memory.part_ranges = memory.part_bytes = 0
        assert remote.get_many(names) == expected
        fetched, requests = memory.part_bytes, memory.part_ranges
        wanted = sum({(i.part_id, i.offset): i.entry_length
                      for i in map(remote.stat, live)}.values())
        # Neighbours read together while the gaps between them (deleted entries) stay within a
        # tenth of the bytes wanted: at most 1.1 times the bytes, in a few requests, not one per
        # name.
        assert fetched <= 1.1 * wanted, (fetched, wanted)
        assert requests < len(live) / 5, requests


def test_read_many_and_a_dataset_batch_are_their_items(changed):
    archive, live, _ = changed
    memory, path = remote_copy(archive, "items")
    for location, fs in ((str(archive), None), (path, memory)):
        ds = hpf.Dataset(location, fs=fs, transform=lambda name, data: (name, len(data), data))
        keys = [5, 0, len(ds) - 1, ds.names[7], 5, -2, ds.names[1]]
        assert ds.__getitems__(keys) == [ds[k] for k in keys]
        with hpf.open(location, fs=fs) as a:
            infos = list(a.list())[::3]
            assert a.read_many(infos) == [live[i.name] for i in infos]
        with pytest.raises(hpf.NotFound):
            ds.__getitems__([0, "no/such/name"])
        ds.close()


def test_damage_in_a_batch_is_named(tree, tmp_path):
    _, archive, files = tree
    copy = tmp_path / archive.name
    shutil.copytree(archive, copy)
    name = next(n for n in sorted(files) if 1000 < len(files[n]) < 20000)
    with hpf.open(copy) as a:
        info = a.stat(name)
    part = copy / f"part-{info.part_id:08d}.hpfp"
    data = bytearray(part.read_bytes())
    data[info.offset + info.entry_length - 10] ^= 0x55
    part.write_bytes(bytes(data))
    memory, path = remote_copy(copy, "damaged")
    with hpf.open(path, fs=memory) as a:
        with pytest.raises(hpf.CorruptArchive) as e:
            a.get_many(sorted(files))
        assert "part-" in str(e.value)
