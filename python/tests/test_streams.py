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


def test_an_entry_over_64_mib_streams_and_seeks(tmp_path, java_hpf):
    """Over the writers' in-memory limit: stored raw in chunks whatever the codec (FORMAT.md
    "Chunked content"), streamed in bounded memory; a seek reads only the chunks it touches."""
    block = random.Random(12).randbytes(1 << 20)
    data = b"".join(bytes([i]) + block[1:] for i in range(64)) + b"tail" * 1000
    src = tmp_path / "src"
    src.mkdir()
    (src / "huge.bin").write_bytes(data)
    java_hpf("create", "--codec", "zstd", tmp_path / "h.hpf", src)
    with hpf.open(tmp_path / "h.hpf") as a:
        info = a.stat("huge.bin")
        assert info.raw_length == len(data) > 64 << 20 and info.codec == 0
        reads = []
        real_read = a.storage.read
        a.storage.read = lambda part, at, n: reads.append(n) or real_read(part, at, n)
        with a.open("huge.bin") as f:
            f.seek(len(data) - 5000)
            assert f.read() == data[-5000:]
        assert sum(reads) < 1 << 20, "a seek near the end reads a chunk or two, not the entry"
        a.storage.read = real_read
        with a.open("huge.bin") as f:
            for at in (40 << 20, 3, len(data) - 10):
                f.seek(at)
                assert f.read(4096) == data[at:at + 4096]
        assert a.get("huge.bin") == data
        assert a.verify() == 1


@pytest.mark.parametrize("codec", ["none", "lz4", "zstd"])
def test_a_transient_fault_at_any_read_leaves_the_next_read_right(large, codec):
    """A storage read that fails once (a timeout, a flaky disk) hands out nothing and moves
    nothing: the next read at the same position gives the right bytes. The fault is put at every
    read of a whole pass in turn."""
    files, archives = large
    for name, data in files.items():
        faults, k = 0, 0
        while True:
            with hpf.open(archives[codec]) as a, a.open(name) as f:
                real, left = a.storage.read, [k]

                def flaky(part, offset, length, real=real, left=left):
                    left[0] -= 1
                    if left[0] == -1:
                        raise OSError(f"{part}: injected fault at {offset}")
                    return real(part, offset, length)

                a.storage.read = flaky
                got, failed = bytearray(), 0
                while len(got) < len(data):
                    try:
                        piece = f.read(100_000)
                    except OSError as e:
                        assert "injected fault" in str(e)
                        assert f.tell() == len(got), "a failed read moved the position"
                        failed += 1
                        continue
                    assert piece
                    got += piece
                assert f.read() == b""
                assert bytes(got) == data, (name, k)
            faults += failed
            if not failed:
                break
            k += 1
        assert faults > 5, (name, faults)
