"""Damaged archives give an error naming the file and offset, never wrong bytes."""

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


def test_a_missing_part_file_is_named_at_open(archive):
    next(archive.glob("part-*.hpfp")).unlink()
    with pytest.raises(hpf.CorruptArchive, match="part-"):
        hpf.open(archive)


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
