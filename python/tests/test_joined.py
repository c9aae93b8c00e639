"""A part file with the file header of a joined part inside it (FORMAT.md "Part file", HDFS
concat): a walk of the part skips it after checking it; a damaged one is named."""

import shutil
import struct

import pytest

import hpf_archive as hpf
from hpf_archive.wire import crc32c
from test_golden import GOLDEN, model


def join_header_at_the_end(archive):
    """Appends a part file header to the only part, as a join of a part holding nothing more
    would leave it, and makes the manifest commit it (its committed length and footer CRC)."""
    part = archive / "part-00000001.hpfp"
    data = part.read_bytes()
    part.write_bytes(data + data[:16])
    manifest = next(archive.glob("manifest-*.hpfm"))
    m = bytearray(manifest.read_bytes())
    old = struct.pack("<IQ", 1, len(data))  # part id 1, committed length
    at = m.find(old)
    assert at > 0 and m.find(old, at + 1) < 0
    m[at:at + 12] = struct.pack("<IQ", 1, len(data) + 16)
    m[-4:] = struct.pack("<I", crc32c(bytes(m[:-8])))
    manifest.write_bytes(bytes(m))
    return part, len(data)


@pytest.fixture
def archive(tmp_path):
    dst = tmp_path / "joined.hpf"
    shutil.copytree(GOLDEN / "v3" / "none.hpf", dst)
    return dst


def test_a_joined_header_is_skipped_by_the_walk(archive):
    join_header_at_the_end(archive)
    with hpf.open(archive) as a:
        assert a.verify() == len(model())
        assert a.get("one") == bytes([42])


def test_a_damaged_joined_header_is_named(archive):
    part, at = join_header_at_the_end(archive)
    data = bytearray(part.read_bytes())
    data[at + 4:at + 8] = b"CATL"
    part.write_bytes(bytes(data))
    with hpf.open(archive) as a:
        with pytest.raises(hpf.CorruptArchive, match=f"offset {at}: no entry here, nor the file "
                                                      "header of a joined part"):
            a.verify()
