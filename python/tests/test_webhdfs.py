"""Archives on HDFS read without a JVM: over WebHDFS (the NameNode's HTTP port) from a real HDFS
of NameNode and DataNode processes (`hpf hdfs start`); hdfs:// without pyarrow's libhdfs says
what to use instead."""

import subprocess

import pytest

import hpf_archive as hpf
from conftest import ROOT, make_tree

HPF = ROOT / "hpf"


def run(*args):
    done = subprocess.run([str(HPF), *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture(scope="module")
def hdfs(tmp_path_factory):
    home = tmp_path_factory.mktemp("hdfs")
    run("hdfs", "start", "--home", home)
    try:
        yield run("hdfs", "status", "--home", home, "--uri"), run(
            "hdfs", "status", "--home", home, "--webhdfs")
    finally:
        subprocess.run([str(HPF), "hdfs", "stop", "--home", str(home)], capture_output=True)


def test_an_archive_on_hdfs_reads_over_webhdfs(hdfs, tmp_path):
    uri, webhdfs = hdfs
    assert webhdfs.startswith("webhdfs://127.0.0.1:")
    files = make_tree(tmp_path / "src", 5, 60)
    run("create", f"{uri}/data/t.hpf", tmp_path / "src")
    with hpf.open(f"{webhdfs}/data/t.hpf") as a:
        assert len(a) == len(files)
        for name, data in files.items():
            assert a.get(name) == data, name
        assert [e.name for e in a.list()] == sorted(files, key=lambda n: n.encode())
        a.verify()


def test_hdfs_without_libhdfs_says_to_use_webhdfs(hdfs):
    uri, _ = hdfs
    with pytest.raises(OSError) as e:
        hpf.open(f"{uri}/data/t.hpf")
    message = str(e.value)
    assert "webhdfs://127.0.0.1:HTTP_PORT/data/t.hpf" in message, message
    assert "hpf hdfs status --webhdfs" in message, message


def test_python_writes_an_archive_into_hdfs_over_webhdfs_and_java_reads_it(hdfs, tmp_path):
    uri, webhdfs = hdfs
    expected = {f"w/{i:03d}.bin": b"%d," % i * (i % 500) for i in range(150)}
    with hpf.create(f"{webhdfs}/data/py.hpf") as w:
        for name, data in expected.items():
            w.add(name, data)
    with hpf.append(f"{webhdfs}/data/py.hpf") as w:
        w.delete("w/000.bin")
        w.add("w/001.bin", b"replaced", replace=True)
    del expected["w/000.bin"]
    expected["w/001.bin"] = b"replaced"
    assert "OK: 149 entries" in run("verify", f"{uri}/data/py.hpf")
    run("extract", f"{uri}/data/py.hpf", tmp_path / "out")
    for name, data in expected.items():
        assert (tmp_path / "out" / name).read_bytes() == data, name
    with hpf.open(f"{webhdfs}/data/py.hpf") as a:
        assert a.manifest.writer_settings.codec == 2  # zstd where reads are remote, as Java's
        assert {e.name: a.get(e.name) for e in a.list()} == expected


def test_a_shuffled_epoch_over_webhdfs_is_every_entry_once(hdfs):
    _, webhdfs = hdfs
    expected = {f"s/{i:03d}": b"%d;" % i * (i % 300) for i in range(200)}
    with hpf.create(f"{webhdfs}/data/shuffled.hpf") as w:
        for name, data in expected.items():
            w.add(name, data)
    ds = hpf.StreamingDataset(f"{webhdfs}/data/shuffled.hpf", batch_size=16, shuffle=True, seed=5)
    seen = list(ds)
    assert len(seen) == len(expected) and dict(seen) == expected
