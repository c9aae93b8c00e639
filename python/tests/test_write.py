"""Archives written from Python (hpf_archive.create, append) judged by the Java CLI: `verify`
passes, and every entry Java lists and extracts is what was written (content, mode, mtime); for
codec none Python writes what Java writes from the same files."""

import json
import os
import random
import struct

import lz4.block
import pytest

import hpf_archive as hpf
from hpf_archive import files
from hpf_archive.write import writer as writer_module


def _content(rnd, i):
    size = rnd.choice([0, 1, 37, 300, 500, 2000, 9000, 70000, rnd.randrange(3 << 20)])
    if i % 3 == 0:
        return rnd.randbytes(size)
    return (f"{i} the quick brown fox jumps over the lazy dog\n" * (size // 45 + 1)).encode()[:size]


def _java_view(java_cli, archive, out):
    """What Java reads: {name: (content, mode, mtime ms)}, after `verify` passed."""
    java_cli("verify", archive)
    java_cli("extract", archive, out)
    seen = {}
    for line in java_cli("ls", "--json", archive).stdout.splitlines():
        row = json.loads(line)
        name = row["name"]
        seen[name] = ((out / name).read_bytes(), row["mode"], row["mtime"], row["attributes"])
    return seen


@pytest.mark.parametrize("codec", ["none", "lz4", "zstd"])
def test_java_verifies_and_reads_what_python_writes_then_appends(tmp_path, java_cli, codec,
                                                                   monkeypatch):
    monkeypatch.setattr(writer_module, "IN_MEMORY_BYTES", 2 << 20)  # a 3 MiB file is streamed
    rnd = random.Random(codec)
    archive = tmp_path / "a.hpf"
    expected = {}
    src = tmp_path / "src"
    src.mkdir()
    with hpf.create(archive, codec=codec) as w:
        for i in range(400):
            name = f"{rnd.choice(['logs', 'img/2024', 'données', '日本'])}/f{i}.bin"
            data = _content(rnd, i)
            mtime = 1_700_000_000 + i
            if i % 4 == 0:
                p = src / f"{i}"
                p.write_bytes(data)
                os.chmod(p, 0o640)
                os.utime(p, (mtime, mtime))
                w.add_file(name, p)
                expected[name] = (data, 0o640, mtime * 1000, {})
            elif i % 4 == 1:
                with open(src / "stream", "wb") as f:
                    f.write(data)
                with open(src / "stream", "rb") as f:
                    w.add(name, f, mode=0o600, mtime=mtime)
                expected[name] = (data, 0o600, mtime * 1000, {})
            else:
                attributes = {"k": str(i), "é": "ü"} if i % 5 == 0 else {}
                w.add(name, data, mtime=mtime, attributes=attributes)
                expected[name] = (data, 0o644, mtime * 1000, attributes)
        big = rnd.randbytes(3 << 20) + b"x" * 10
        (src / "big").write_bytes(big)
        w.add_file("big/streamed.bin", src / "big")
        st = os.stat(src / "big")
        expected["big/streamed.bin"] = (big, st.st_mode & 0o7777, st.st_mtime_ns // 1_000_000, {})
    assert _java_view(java_cli, archive, tmp_path / "out1") == expected

    names = sorted(expected)
    with hpf.append(archive) as w:
        for name in names[::7]:
            w.delete(name)
            del expected[name]
        for i, name in enumerate(names[3::11]):
            if name in expected:
                data = f"replaced {name}".encode() * (i % 50)
                w.add(name, data, replace=True, mtime=1_800_000_000)
                expected[name] = (data, 0o644, 1_800_000_000_000, {})
        for i in range(50):
            data = _content(rnd, 1000 + i)
            w.add(f"new/{i}", data, mtime=1_800_000_001)
            expected[f"new/{i}"] = (data, 0o644, 1_800_000_001_000, {})
    assert _java_view(java_cli, archive, tmp_path / "out2") == expected
    with hpf.open(archive) as a:
        assert len(a) == len(expected)
        for name, (data, mode, mtime, attributes) in expected.items():
            assert a.get(name) == data
            info = a.stat(name)
            assert (info.mode, info.mtime_millis, info.attributes) == (mode, mtime, attributes)
        ops = [h[2] for h in a.manifest.history]
        assert ops[0] == "create 401 entries" and ops[1].startswith("add --replace ")


def _canonical(path):
    """An archive's newest segment and manifest with the catalog's blocks decompressed: what a
    writer decides, apart from the bytes its LZ4 library picks (lz4-java and liblz4 compress the
    same block differently, each decoding to the same rows)."""
    a = hpf.open(path)
    m, seg = a.manifest, a.manifest.segments[-1]
    data = (path / files.segment(seg.segment_id)).read_bytes()
    index_at = 16 + struct.unpack_from("<Q", data, 16 + seg.catalog_length - 40)[0]
    blocks, p = [], 32
    while p < index_at:
        codec, raw, stored, crc = struct.unpack_from("<BIII", data, p)
        body = data[p + 13:p + 13 + stored]
        blocks.append((raw, crc, body if codec == 0 else lz4.block.decompress(body, raw)))
        p += 13 + stored
    buckets = [(b.number, b.local_depth, b.key_count, b.meta_length,
                data[b.offset:b.offset + b.file_length]) for b in seg.buckets]
    fields = (m.generation, m.commit_millis, m.operation, m.bucket_capacity, m.live_entries,
              m.live_bytes, m.parts, m.writer_settings, m.id_marks, m.history, seg.leaves,
              seg.global_depth, seg.entry_count, seg.tombstone_count)
    parts = {p: (path / files.part(p)).read_bytes() for p in m.parts}
    a.close()
    return blocks, buckets, fields, parts


def test_codec_none_writes_what_java_writes_from_the_same_files(tmp_path, java_cli, monkeypatch):
    src = tmp_path / "src"
    rnd = random.Random(3)
    for i in range(3000):
        d = src / ["", "d", "d/e"][i % 3]
        d.mkdir(parents=True, exist_ok=True)
        (d / f"f{i}.txt").write_bytes(_content(rnd, i)[:5000])
    (src / "big").write_bytes(rnd.randbytes(2 << 20))
    java_cli("create", "--codec", "none", "--threads", "1", tmp_path / "j.hpf", src)
    with hpf.open(tmp_path / "j.hpf") as j:
        order = sorted(j.list(), key=lambda e: (e.part_id, e.offset, e.member))
        commit = j.manifest.commit_millis
    monkeypatch.setattr(writer_module.time, "time", lambda: commit / 1000)  # the same clock
    with hpf.create(tmp_path / "p.hpf", codec="none") as w:
        for e in order:
            w.add_file(e.name, src / e.name)
    java, python = _canonical(tmp_path / "j.hpf"), _canonical(tmp_path / "p.hpf")
    assert python[3] == java[3]  # part files, byte for byte
    assert python[2] == java[2]  # manifest fields, directory
    assert python[1] == java[1]  # buckets: perfect hashes, seeds, records
    assert python[0] == java[0]  # catalog blocks: the same rows cut at the same places


@pytest.mark.parametrize("version", range(1, 8))
def test_python_appends_to_golden_archives_of_every_version(tmp_path, java_cli, version):
    """Archives of every format version take a Python writer's commit (a version-7 manifest with
    id marks worked out from every manifest present), as Java's writers do."""
    import shutil

    from conftest import ROOT

    golden = ROOT / "hpf-core" / "src" / "test" / "resources" / "golden" / f"v{version}"
    for i, source in enumerate(sorted(golden.glob("*.hpf"))):
        archive = tmp_path / source.name
        shutil.copytree(source, archive)
        with hpf.open(archive) as a:
            before = {e.name: a.get(e.name) for e in a.list()}
        gone = sorted(before)[0]
        with hpf.append(archive) as w:
            w.delete(gone)
            w.add("from-python/new.txt", b"added by Python")
        if i == 0:
            java_cli("verify", archive)  # one a version through a JVM: the rest as Java judges
        with hpf.open(archive) as a:
            a.verify()
            after = {e.name: a.get(e.name) for e in a.list()}
            assert a.manifest.id_marks is not None
        del before[gone]
        before["from-python/new.txt"] = b"added by Python"
        assert after == before, source.name
