"""The golden archives of every format version the Java code reads (hpf-core's test resources)
read entry by entry against their model (GoldenArchives.model)."""

import functools

import pytest

import hpf_archive as hpf
from conftest import ROOT

GOLDEN = ROOT / "hpf-core" / "src" / "test" / "resources" / "golden"
ARCHIVES = [p for v in ("v1", "v2", "v3", "v4", "v5", "v6", "v7")
            for p in sorted((GOLDEN / v).glob("*.hpf"))]


def model():
    m = {"empty": b"", "one": bytes([42])}
    for i in range(60):
        text = f"line {i} of a log file with some repeated words words words\n" * (i + 1)
        m[f"logs/2026/11/app-{i}.log"] = text.encode()
    m["bin/noise.bin"] = None  # Java's SplittableRandom bytes: checked by length and CRC32C
    m["unicode/日本語/ファイル.txt"] = "こんにちは".encode()
    return m


@functools.cache
def chunked_model():
    """The entries v7/chunked.hpf has besides the model's (GoldenArchives.chunkedModel)."""
    def log_lines(length):
        text, size, i = [], 0, 0
        while size < length:
            text.append(f"line {i} of a big log, in chunks of 64 KiB\n")
            size += len(text[-1])
            i += 1
        return "".join(text)[:length].encode()
    return {"big/compressed.log": log_lines((3 << 19) + 12_345),
            "big/streamed.log": log_lines((1 << 20) + 4097)}


@pytest.mark.parametrize("path", ARCHIVES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_archive_reads_as_its_model(path):
    expected = model()
    if path.name.startswith("chunked"):
        expected.update(chunked_model())
    with hpf.open(path) as a:
        assert len(a) == len(expected)
        names = [e.name for e in a.list()]
        assert names == sorted(expected, key=lambda n: n.encode())
        for name, content in expected.items():
            info = a.stat(name)
            assert info.mtime_millis == 1_763_000_000_000 + len(name)
            got = a.get(name)  # the content CRC32C is checked on every read
            if content is None:
                assert len(got) == 5000
                assert info.mode == 0o600
                assert info.attributes == {"content-type": "application/octet-stream"}
            else:
                assert got == content, name
                assert info.mode == 0o644
                if len(content) > 1 << 20:  # in chunks: any offset reads as the model
                    with a.open(name) as f:
                        for at in (65_535, 65_536 * 7 + 3, len(content) - 100):
                            f.seek(at)
                            assert f.read(100) == content[at:at + 100], (name, at)
        assert "logs/2026/11/app-60.log" not in a
        with pytest.raises(hpf.NotFound):
            a.get("nope")


@pytest.mark.parametrize("name,settings", [
    ("v6/zstd-level-10-solid.hpf", (2, 262144, 65536, 10)),
    ("v6/lz4-small-groups.hpf", (1, 1024, 512, 3)),
    ("v5/lz4.hpf", (1, 32768, 4096, 3)),
    ("v5/zstd-dictionary.hpf", (2, 32768, 4096, 3)),
    ("v5/none.hpf", (0, 32768, 4096, 3)),
    ("v5/lz4-small-groups.hpf", (1, 1024, 512, 3)),
    ("v4/lz4.hpf", None),
])
def test_version_5_and_6_manifests_record_the_writer_settings(name, settings):
    """Version 6 adds the zstd level; version 5's manifests read as level 3."""
    with hpf.open(GOLDEN / name) as a:
        got = a.manifest.writer_settings
        if settings is None:
            assert got is None
        else:
            assert (got.codec, got.group_bytes, got.group_entry_max_bytes,
                    got.zstd_level) == settings
            assert a.manifest.bucket_capacity == 16


@pytest.mark.parametrize("name,codec,shift", [
    ("chunked.hpf", 2, 18), ("chunked-lz4-4k.hpf", 1, 12), ("chunked-zstd-1m.hpf", 2, 20)])
def test_version_7_archives_hold_chunks_of_every_codec_and_the_sizes_at_both_ends(name, codec,
                                                                                  shift):
    """GoldenArchives' chunked archives: the compressed entry in chunks of its codec, the streamed
    one raw, each in chunks of the archive's size (the chunk size field, FORMAT.md "Entry")."""
    with hpf.open(GOLDEN / "v7" / name) as a:
        for entry, want in (("big/compressed.log", codec), ("big/streamed.log", 0)):
            info = a.stat(entry)
            header = a._part(info.part_id, "test").header_at(info.offset, info.entry_length)
            assert (header.codec, header.chunk_shift) == (want, shift), entry
            chunks = ((info.raw_length - 1) >> shift) + 1
            assert header.stored_length > 12 * chunks  # a slot per chunk


def test_version_7_manifests_record_the_id_marks():
    with hpf.open(GOLDEN / "v7" / "chunked.hpf") as a:
        assert a.manifest.id_marks == (1, 1)
    with hpf.open(GOLDEN / "v6" / "lz4.hpf") as a:
        assert a.manifest.id_marks is None


def test_the_golden_archives_hold_both_perfect_hash_encodings():
    """lz4-pilot-dictionary.hpf stores every bucket's pilots through a dictionary (FORMAT.md
    "Perfect hash", encoding 2), which writers choose only for buckets far larger than a golden
    archive's; it reads as its model above."""
    def encodings(path):
        with hpf.open(path) as a:
            found = set()
            for index in a._indexes:
                for b, bucket in enumerate(index.segment.buckets):
                    if bucket.key_count:
                        found.add(index._meta(b)[0].encoding)
            return found

    assert encodings(GOLDEN / "v6" / "lz4-pilot-dictionary.hpf") == {2}
    assert encodings(GOLDEN / "v6" / "lz4.hpf") == {1}


def test_a_missing_name_is_told_with_the_archive_as_given():
    path = next(p for p in ARCHIVES if p.parent.name == "v7")
    with hpf.open(path) as a, pytest.raises(hpf.NotFound) as e:
        a.get("no/such/name")
    assert str(e.value) == f"{path}: no entry 'no/such/name'"  # no trailing slash
