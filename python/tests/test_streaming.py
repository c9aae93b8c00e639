"""StreamingDataset: every entry once per epoch, a seeded global shuffle, positions shared between
ranks and data-loader workers a batch at a time so that what a loop has seen is a prefix of the
epoch's order, and a resume at any position with another number of workers or ranks (modelled
here as PyTorch's DataLoader takes batches: its workers in turn)."""

import pickle

import pytest
from hypothesis import given, settings, strategies as st

import hpf_archive as hpf
from hpf_archive import streaming
from hpf_archive.permutation import Permutation

N = 1000


@pytest.fixture(scope="module")
def archives(tmp_path_factory):
    """Two archives, N entries in all, of content derived from the name."""
    root = tmp_path_factory.mktemp("streaming")
    paths = [root / "a.hpf", root / "b.hpf"]
    for k, path in enumerate(paths):
        with hpf.create(path) as w:
            for i in range(k, N, 2):
                w.add(f"s/{i:05d}", _content(i))
    return paths


def _content(i):
    return b"%d," % i * (i % 23)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5000), st.integers(0, 2**63))
def test_the_permutation_is_one_of_every_position(n, key):
    p = Permutation(n, key)
    assert sorted(p[i] for i in range(n)) == list(range(n))


def _loop(ds, world, workers, monkeypatch, steps=None):
    """What a training loop of `world` ranks in lockstep sees, each rank's DataLoader taking
    batches from its `workers` workers in turn: the samples in the order seen."""
    per_rank = []
    for rank in range(world):
        ds._rank, ds._world_size = rank, world
        streams = []
        for w in range(workers):
            monkeypatch.setattr(streaming, "_worker", lambda w=w: (w, workers))
            samples = list(pickle.loads(pickle.dumps(ds)))  # each worker has a copy
            streams.append([samples[i:i + ds.batch_size]
                            for i in range(0, len(samples), ds.batch_size)])
        batches = []
        for turn in range(max(len(s) for s in streams)):
            batches += [s[turn] for s in streams if turn < len(s)]
        per_rank.append(batches)
    seen = []
    for step in range(max(len(b) for b in per_rank)):
        if steps is not None and step == steps:
            break
        for batches in per_rank:
            if step < len(batches):
                seen += batches[step]
    return seen


@settings(max_examples=25, deadline=None)
@given(batch=st.integers(1, 70), world=st.integers(1, 3), workers=st.integers(1, 4),
       world2=st.integers(1, 3), workers2=st.integers(1, 4), steps=st.integers(0, 20),
       seed=st.integers(0, 1000), epoch=st.integers(0, 3))
def test_a_loop_sees_a_prefix_of_the_epoch_and_resumes_exactly(archives, batch, world, workers,
                                                               world2, workers2, steps, seed,
                                                               epoch):
    with pytest.MonkeyPatch.context() as mp:
        ds = hpf.StreamingDataset(archives, batch_size=batch, shuffle=True, seed=seed)
        ds.set_epoch(epoch)
        whole = _loop(ds, 1, 1, mp)
        names = [name for name, _ in whole]
        assert sorted(names) == [f"s/{i:05d}" for i in range(N)]  # every entry, once
        assert all(data == _content(int(name[2:])) for name, data in whole)
        seen = _loop(ds, world, workers, mp, steps=steps)
        assert seen == whole[:len(seen)]  # any split of the work: the same order
        state = ds.state_dict(samples_seen=len(seen))
        again = hpf.StreamingDataset(archives, batch_size=batch, shuffle=True, seed=seed)
        again.load_state_dict(state)
        assert _loop(again, world2, workers2, mp) == whole[len(seen):]


def test_epochs_and_seeds_shuffle_differently_and_in_order_without_shuffle(archives):
    def order(**kw):
        ds = hpf.StreamingDataset(archives, **kw)
        return [name for name, _ in ds]

    in_order = [f"s/{i:05d}" for i in range(0, N, 2)] + [f"s/{i:05d}" for i in range(1, N, 2)]
    assert order() == in_order  # archives in turn, each in name order
    assert order(shuffle=True, seed=1) == order(shuffle=True, seed=1)
    assert order(shuffle=True, seed=1) != order(shuffle=True, seed=2)
    ds = hpf.StreamingDataset(archives, shuffle=True, seed=1)
    first = [n for n, _ in ds]
    ds.set_epoch(1)
    assert [n for n, _ in ds] != first


def test_a_state_of_another_dataset_is_refused(archives):
    ds = hpf.StreamingDataset(archives, shuffle=True, seed=1)
    state = ds.state_dict(samples_seen=10)
    with pytest.raises(ValueError, match="another dataset"):
        hpf.StreamingDataset(archives[:1], shuffle=True, seed=1).load_state_dict(state)
    with pytest.raises(ValueError, match="another dataset"):
        hpf.StreamingDataset(archives, shuffle=True, seed=2).load_state_dict(state)


def test_a_damaged_entry_raises_naming_it_or_is_skipped_and_counted(tmp_path):
    path = tmp_path / "d.hpf"
    with hpf.create(path, codec="none") as w:
        for i in range(50):
            w.add(f"x/{i:02d}", b"%02d" % i * 2000)
    with hpf.open(path) as a:
        info = a.stat("x/07")
        part = path / f"part-{info.part_id:08d}.hpfp"
    data = bytearray(part.read_bytes())
    data[info.offset + info.entry_length - 100] ^= 0xFF  # inside x/07's content
    part.write_bytes(bytes(data))
    with pytest.raises(hpf.CorruptArchive, match="x/07|offset"):
        list(hpf.StreamingDataset(path))
    ds = hpf.StreamingDataset(path, skip_damaged=True, transform=lambda name, data: name)
    assert list(ds) == [f"x/{i:02d}" for i in range(50) if i != 7]
    assert ds.skipped == 1


def test_entries_by_position_are_the_listing_lazily_or_not(tmp_path):
    from hpf_archive.listing import Entries

    path = tmp_path / "g.hpf"
    with hpf.create(path) as w:  # groups of tiny files, and entries of their own
        for i in range(3000):
            w.add(f"d{i % 7}/{i:05d}", b"x" * (i % 900))
    with hpf.open(path) as a:
        lazy = Entries(a)
        assert lazy._catalog is not None  # one segment, no tombstones: by catalog block
        assert [lazy[i] for i in range(len(lazy))] == list(a.list())
    with hpf.append(path) as w:
        w.delete("d0/00000")
        w.add("new", b"n")
    with hpf.open(path) as a:
        listed = Entries(a)
        assert listed._catalog is None  # two segments and a tombstone: listed whole
        assert [listed[i] for i in range(len(listed))] == list(a.list())
        assert [e.name for e in Entries(a, "d3/")] == [e.name for e in a.list("d3/")]


def test_the_perfect_hash_is_the_same_with_numpy_and_without(monkeypatch):
    import random

    from hpf_archive.write import pthash

    if pthash._np is None:
        pytest.fail("numpy is expected here (pandas brings it): the two searches must agree")
    rnd = random.Random(9)
    for n in (1, 2, 5, 63, 64, 300, 5000):
        keys = [rnd.getrandbits(64) for _ in range(n)]
        with_numpy = pthash.build(keys)
        monkeypatch.setattr(pthash, "_np", None)
        assert pthash.build(keys) == with_numpy, n
        monkeypatch.undo()
