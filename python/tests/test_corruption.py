"""Damaged archives give an error naming the file and offset, never wrong bytes."""

import random
import re
import shutil
import struct

import pytest

import hpf_archive as hpf
from test_golden import GOLDEN, model


@pytest.fixture
def archive(tmp_path):
    dst = tmp_path / "none.hpf"
    shutil.copytree(GOLDEN / "v2" / "none.hpf", dst)
    return dst


def flip(path, offset):
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x20
    path.write_bytes(bytes(data))


def test_a_flipped_content_byte_is_named_and_other_entries_read(archive):
    name = "logs/2026/11/app-30.log"
    with hpf.open(archive) as a:
        info = a.stat(name)
    part = archive / ("part-%08d.hpfp" % info.part_id)
    flip(part, info.offset + info.entry_length - 4 - info.stored_length // 2)
    with hpf.open(archive) as a:
        with pytest.raises(hpf.CorruptArchive) as e:
            a.get(name)
        assert str(part) in str(e.value) and "checksum" in str(e.value)
        assert a.get("logs/2026/11/app-3.log") == model()["logs/2026/11/app-3.log"]


def test_a_flipped_header_byte_and_a_flipped_catalog_byte_are_named(archive):
    name = "logs/2026/11/app-7.log"
    with hpf.open(archive) as a:
        info = a.stat(name)
    part = archive / ("part-%08d.hpfp" % info.part_id)
    flip(part, info.offset + 20)
    with hpf.open(archive) as a:
        with pytest.raises(hpf.CorruptArchive, match="header checksum"):
            a.get(name)
    catalog = next(archive.glob("seg-*.hpfc"))
    flip(catalog, 30)
    with hpf.open(archive) as a:
        with pytest.raises(hpf.CorruptArchive, match=str(catalog)):
            list(a.list())


def test_a_newer_version_is_unsupported_and_a_truncated_manifest_corrupt(archive):
    manifest = next(archive.glob("manifest-*.hpfm"))
    data = bytearray(manifest.read_bytes())
    data[8:12] = struct.pack("<I", 9)
    manifest.write_bytes(bytes(data))
    with pytest.raises(hpf.UnsupportedVersion, match="unsupported version 9"):
        hpf.open(archive)
    manifest.write_bytes(bytes(data[:-20]).replace(struct.pack("<I", 9), struct.pack("<I", 2), 1))
    with pytest.raises(hpf.CorruptArchive, match=str(manifest)):
        hpf.open(archive)


def test_a_missing_part_file_is_named_when_read_and_by_verify(archive):
    """A damaged part, not a damaged archive (as Java judges it): the archive opens and lists;
    reading an entry of the part and verify name the part."""
    next(archive.glob("part-*.hpfp")).unlink()
    with hpf.open(archive) as a:
        assert sorted(e.name for e in a.list("")) == sorted(model())
        with pytest.raises(hpf.CorruptArchive, match="part-.*missing"):
            for name in model():
                a.get(name)
        with pytest.raises(hpf.CorruptArchive, match="part-"):
            a.verify()


def test_a_flipped_index_record_is_named(archive):
    # Every record of every bucket damaged: any lookup that reaches a record reports it.
    for bucket in archive.glob("seg-*-b*.hpfx"):
        data = bytearray(bucket.read_bytes())
        for at in range(len(data) - 8 - 4, 16, -32):  # the records' CRC bytes, from the end
            data[at] ^= 0x01
        bucket.write_bytes(bytes(data))
    with hpf.open(archive) as a:
        with pytest.raises(hpf.CorruptArchive, match=r"\.hpfx"):
            for name in model():
                a.get(name)


# --- Every kind of file damaged, as hpf-core's CorruptionTest does -----------------------------

@pytest.fixture(scope="module", params=["zstd", "lz4"])
def pristine(request, tmp_path_factory, java_hpf):
    """An archive with every kind of file, several of most: small buckets and parts, zstd with
    a trained dictionary (the default on HDFS) or lz4 (on local disk). Returns (archive, model)."""
    from conftest import make_tree

    codec = request.param
    root = tmp_path_factory.mktemp("pristine-" + codec)
    files = make_tree(root / "src", 11, 300)
    archive = root / "pristine.hpf"
    java_hpf("create", "--codec", codec, "--bucket-capacity", "100", "--part-size", "1",
             archive, root / "src")
    kinds = {p.suffix for p in archive.iterdir()}
    assert kinds == {".hpfm", ".hpfp", ".hpfs"}, kinds  # catalog, buckets, dictionary: in .hpfs
    with hpf.open(archive) as a:
        assert len(a.manifest.segments[0].buckets) > 1
        assert bool(a.manifest.dictionaries) == (codec == "zstd")
        assert {1: "lz4", 2: "zstd"}[max(e.codec for e in a.list())] == codec, "entries to damage"
    assert len(list(archive.glob("*.hpfp"))) > 1
    return archive, files


def damaged_copies(pristine, tmp_path, damage):
    """(copy, damaged file name) for each file of the archive, damaged by damage(path, rnd)."""
    archive, _ = pristine
    rnd = random.Random(3)
    for i, f in enumerate(sorted(p.name for p in archive.iterdir())):
        for trial in range(damage.trials):
            dst = tmp_path / f"{i}-{trial}"
            shutil.copytree(archive, dst)
            if damage(dst / f, trial, rnd):
                yield dst, f


def assert_right_bytes_or_named(copy, damaged, files):
    """Every read gives the right bytes or an error naming the damaged file; nothing is
    silently missing; verify names the file."""
    try:
        a = hpf.open(copy)
    except hpf.HpfError as e:
        assert damaged in str(e), e
        return
    with a:
        for name, content in files.items():
            try:
                assert a.get(name) == content, f"wrong bytes for {name} after damaging {damaged}"
            except hpf.NotFound:
                pytest.fail(f"damage to {damaged} made '{name}' silently not found")
            except hpf.HpfError as e:
                assert damaged in str(e), e
        try:
            assert all(e.name in files for e in a.list())
        except hpf.HpfError as e:
            assert damaged in str(e), e
        with pytest.raises(hpf.HpfError, match=re.escape(damaged)):
            a.verify()


def flip_bits(path, trial, rnd):
    n = path.stat().st_size
    at = [0, 5, 9, 13, n - 1, n - 5, n - 20][trial] if trial < 7 else rnd.randrange(n)
    if not 0 <= at < n:
        return False
    data = bytearray(path.read_bytes())
    data[at] ^= 1 << rnd.randrange(8)
    path.write_bytes(bytes(data))
    return True


flip_bits.trials = 12


def truncate(path, trial, rnd):
    n = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate([0, 7, n // 2, n - 1][trial])
    return True


truncate.trials = 4


def test_flipped_bits_in_every_file_are_caught(pristine, tmp_path):
    for copy, damaged in damaged_copies(pristine, tmp_path, flip_bits):
        assert_right_bytes_or_named(copy, damaged, pristine[1])
        shutil.rmtree(copy)


def test_truncated_files_are_caught(pristine, tmp_path):
    for copy, damaged in damaged_copies(pristine, tmp_path, truncate):
        assert_right_bytes_or_named(copy, damaged, pristine[1])
        shutil.rmtree(copy)


def test_flipped_bits_in_every_section_of_a_segment_file_are_caught(pristine, tmp_path):
    """A segment file holds the catalog, each bucket and the dictionary: a bit flipped at the
    start, middle and end of each is caught and named with the segment file."""
    from hpf_archive import files as names

    archive, files = pristine
    with hpf.open(archive) as a:
        m = a.manifest
    seg = m.segments[0]
    sections = [names.catalog_section(seg)] + [names.bucket_section(seg, b) for b in seg.buckets]
    sections += [names.dictionary_section(i, d) for i, d in m.dictionaries.items()]
    assert all(s.file == names.segment(seg.segment_id) for s in sections)
    for i, s in enumerate(sections):
        for j, at in enumerate((s.offset + 4, s.offset + s.length // 2, s.offset + s.length - 6)):
            copy = tmp_path / f"s{i}-{j}"
            shutil.copytree(archive, copy)
            flip(copy / s.file, at)
            assert_right_bytes_or_named(copy, s.file, files)
            shutil.rmtree(copy)


def test_missing_files_are_named(pristine, tmp_path):
    archive, files = pristine
    for f in sorted(p.name for p in archive.iterdir()):
        copy = tmp_path / f
        shutil.copytree(archive, copy)
        (copy / f).unlink()
        if f.startswith("manifest-"):
            with pytest.raises(hpf.CorruptArchive, match="not an archive"):
                hpf.open(copy)
        else:
            assert_right_bytes_or_named(copy, f, files)


def test_a_streamed_lz4_entry_claiming_gigabytes_is_refused_before_decoding(tmp_path):
    """A header whose checksum holds but whose LZ4 raw length is 3 GiB: an LZ4 block is decoded
    whole, so the 64 MiB limit must refuse it before anything is allocated."""
    import crc32c

    copy = tmp_path / "lz4.hpf"
    shutil.copytree(GOLDEN / "v2" / "lz4.hpf", copy)
    name = "logs/2026/11/app-59.log"
    with hpf.open(copy) as a:
        info = a.stat(name)
    assert info.codec == 1
    part = copy / ("part-%08d.hpfp" % info.part_id)
    data = bytearray(part.read_bytes())
    at = info.offset
    h = struct.unpack_from("<I", data, at + 4)[0]
    struct.pack_into("<Q", data, at + 16, 3 << 30)
    struct.pack_into("<I", data, at + h - 4, crc32c.crc32c(bytes(data[at:at + h - 4])))
    part.write_bytes(bytes(data))
    with hpf.open(copy) as a:
        with pytest.raises(hpf.CorruptArchive, match="lz4 content over 64 MiB"):
            a.open(name)


@pytest.mark.parametrize("level", [0, 20])
def test_a_zstd_level_no_writer_takes_is_named(tmp_path, level):
    """Version 6's writer settings end with the zstd level, 1 to 19 (FORMAT.md "Manifest")."""
    dst = tmp_path / "solid.hpf"
    shutil.copytree(GOLDEN / "v6" / "zstd-level-10-solid.hpf", dst)
    manifest = next(dst.glob("manifest-*.hpfm"))
    data = bytearray(manifest.read_bytes())
    (op_length,) = struct.unpack_from("<H", data, 32)
    at = 32 + 2 + op_length + 1 + 3 + 4 + 1 + 4 + 4  # after the group entry size
    assert data[at] == 10
    data[at] = level
    struct.pack_into("<I", data, len(data) - 4, hpf.wire.crc32c(bytes(data[:-8])))
    manifest.write_bytes(bytes(data))
    with pytest.raises(hpf.CorruptArchive, match=f"zstd level {level}") as e:
        hpf.open(dst)
    assert str(manifest) in str(e.value) and f"offset {at}" in str(e.value)
