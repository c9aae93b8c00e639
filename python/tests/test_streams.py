"""Large entries as seekable streams in every codec, checked as they are read."""

import random
import shutil

import pytest

import hpf_archive as hpf


@pytest.fixture(scope="module")
def large(tmp_path_factory, java_hpf):
    root = tmp_path_factory.mktemp("large")
    rnd = random.Random(4)
    files = {
        "big/random.bin": rnd.randbytes(3 << 20),
        "big/text.log": b"".join(b"%d a line of a log that compresses\n" % i for i in range(120_000)),
    }
    for name, data in files.items():
        p = root / "src" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    archives = {}
    for codec in ("none", "lz4", "zstd"):
        archives[codec] = root / f"{codec}.hpf"
        java_hpf("create", "--codec", codec, archives[codec], root / "src")
    return files, archives


@pytest.mark.parametrize("codec", ["none", "lz4", "zstd"])
def test_open_seek_read_in_every_codec(large, codec):
    files, archives = large
    with hpf.open(archives[codec]) as a:
        for name, data in files.items():
            with a.open(name) as f:
                f.seek(10**6)
                assert f.read(100) == data[10**6:10**6 + 100]
                f.seek(-50, 2)
                assert f.read() == data[-50:]
                f.seek(5)  # backward: starts again
                assert f.read(10) == data[5:15]
            with a.open(name) as f:
                assert f.read() == data
        with pytest.raises(hpf.NotFound):
            a.open("nope")


def test_a_damaged_large_entry_fails_when_read_to_its_end(large, tmp_path):
    files, archives = large
    copy = tmp_path / "none.hpf"
    shutil.copytree(archives["none"], copy)
    with hpf.open(copy) as a:
        info = a.stat("big/random.bin")
    part = copy / ("part-%08d.hpfp" % info.part_id)
    data = bytearray(part.read_bytes())
    data[info.offset + info.entry_length - 4 - 1000] ^= 0xFF
    part.write_bytes(bytes(data))
    with hpf.open(copy) as a:
        with a.open("big/random.bin") as f:
            assert f.read(1000) == files["big/random.bin"][:1000]  # before the damage
            with pytest.raises(hpf.CorruptArchive, match="checksum"):
                f.read()
