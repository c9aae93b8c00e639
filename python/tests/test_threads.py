"""One archive shared by threads, as a data loader's worker threads share it: lazy loads
(bucket metadata, slot tables, catalogs, dictionaries, cached pages) race and every answer
stays right, on local disk and through an fsspec file system."""

import random
from concurrent.futures import ThreadPoolExecutor

import fsspec
import pytest

import hpf_archive as hpf


def work(archive, files, seed):
    rnd = random.Random(seed)
    names = sorted(files)
    for _ in range(300):
        name = rnd.choice(names)
        op = rnd.randrange(5)
        if op == 0:
            assert archive.get(name) == files[name], name
        elif op == 1:
            assert archive.stat(name).raw_length == len(files[name])
        elif op == 2:
            content = files[name]
            at = rnd.randrange(len(content) + 1)
            with archive.open(name) as f:
                f.seek(at)
                assert f.read(5000) == content[at:at + 5000]
        elif op == 3:
            prefix = name.split("/")[0]
            assert [e.name for e in archive.list(prefix)] == sorted(
                (n for n in files if n.startswith(prefix)), key=lambda n: n.encode())
        else:
            assert name + ".missing" not in archive
    return True


@pytest.mark.parametrize("where", ["local", "memory"])
def test_threads_share_one_archive(tree, where):
    _, archive, files = tree
    if where == "local":
        a = hpf.open(archive)
    else:
        memory = fsspec.filesystem("memory")
        for p in archive.iterdir():
            memory.pipe_file(f"/threads/{archive.name}/{p.name}", p.read_bytes())
        a = hpf.open(f"memory://threads/{archive.name}")
    with a, ThreadPoolExecutor(8) as pool:
        assert all(pool.map(lambda s: work(a, files, s), range(16)))
