"""The map-style Dataset, in this process and pickled to worker processes."""

import multiprocessing
import pickle

import pytest

import hpf_archive as hpf
from conftest import CSV


def sizes(name, data):
    return name, len(data)


def test_items_by_position_and_name(tree):
    _, archive, files = tree
    ds = hpf.Dataset(archive)
    order = sorted(files, key=lambda n: n.encode())
    assert len(ds) == len(files) and ds.names == order
    for i, name in enumerate(order):
        assert ds[i] == files[name] and ds[name] == files[name]
        assert ds.index(name) == i
    assert ds[-1] == files[order[-1]]
    with pytest.raises(IndexError):
        ds[len(files)]
    with pytest.raises(hpf.NotFound):
        ds["not/there"]
    with pytest.raises(ValueError):
        ds.index("not/there")


def test_a_prefix_and_a_transform(tree):
    _, archive, files = tree
    ds = hpf.Dataset(archive, prefix="2024/", transform=sizes)
    assert ds.names == [CSV]
    assert ds[0] == (CSV, len(files[CSV]))


def test_worker_processes_open_the_archive_themselves(tree):
    _, archive, files = tree
    ds = hpf.Dataset(archive)
    ds[0]  # opened here; what is pickled must not carry the mapping
    state = pickle.dumps(ds)
    assert len(state) < 200 * len(files) + 10_000  # entry list and location, no content
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.map(ds.__getitem__, range(len(ds)))
    assert got == [files[n] for n in ds.names]
