"""The pure-Python CRC32C, XXH64 and LZ4 block decoder agree with the packages; without those
packages an archive still reads, and the user is told at open."""

import os
import random
import subprocess
import sys

import crc32c
import lz4.block
import xxhash

from hpf_archive import fallback
from test_golden import GOLDEN, model

SAMPLES = [b"", b"a", b"abc", bytes(range(256))] + [
    random.Random(n).randbytes(n) for n in (3, 7, 8, 31, 32, 33, 63, 64, 100, 1000, 4099)]


def test_checksums_and_hashes_agree_with_the_packages():
    for data in SAMPLES:
        assert fallback.crc32c(data) == crc32c.crc32c(data)
        assert fallback.crc32c(data[5:], fallback.crc32c(data[:5])) == crc32c.crc32c(data)
        for seed in (0, 1, 0xFFFFFFFFFFFFFFFF, 0x9E3779B97F4A7C15):
            assert fallback.xxh64(data, seed) == xxhash.xxh64_intdigest(data, seed)


def test_lz4_blocks_decode_as_the_package_and_damage_is_refused():
    for data in SAMPLES + [b"abcabcabcabc" * 500, b"\0" * 70000]:
        block = lz4.block.compress(data, store_size=False)
        assert fallback.lz4_block(block, len(data)) == data
        if len(data) > 20:
            assert fallback.lz4_block(block, len(data) - 1) is None  # decodes past the length
            assert fallback.lz4_block(block[:-3], len(data)) is None  # truncated
    assert fallback.lz4_block(b"\x1f\x00\x01\x00\x00", 30) is None  # a match before any output


def test_an_archive_reads_without_the_packages_and_says_so():
    blocked = ("import sys\n"
               "for m in ('crc32c', 'xxhash', 'lz4', 'lz4.block'):\n"
               "    sys.modules[m] = None\n"
               "import hpf_archive as hpf\n"
               "from hpf_archive import codecs\n"
               "assert codecs.MISSING == ['crc32c', 'xxhash', 'lz4'], codecs.MISSING\n"
               "a = hpf.open(sys.argv[1])\n"
               "print(a.verify(), a.get('unicode/日本語/ファイル.txt').decode())\n")
    run = subprocess.run([sys.executable, "-c", blocked, str(GOLDEN / "v2" / "lz4.hpf")],
                         capture_output=True, text=True, env=dict(os.environ, LC_ALL="C.UTF-8"))
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [str(len(model())), "こんにちは"]
    assert "crc32c, xxhash, lz4 not installed" in run.stderr
