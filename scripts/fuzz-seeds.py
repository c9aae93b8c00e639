#!/usr/bin/env python3
"""Makes the seeds of the fuzz tests from the golden archives (docs/FUZZING.md): for Java's
ArchiveFuzzTest (a first byte choosing the parser, then its input) and Python's test_fuzz.py
(the same files). Run from the repository root with the package's virtualenv:
    "$(scripts/python-venv.sh)/bin/python" scripts/fuzz-seeds.py
Findings are added beside these seeds by the fuzzers, never by this script."""

import pathlib
import struct

import hpf_archive as hpf

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "hpf-core" / "src" / "test" / "resources" / "golden"
OUT = ROOT / "hpf-core" / "src" / "test" / "resources" / "io" / "hpf" / "archive" / "ArchiveFuzzTestInputs" / "everyParser"
MANIFEST, PART, BUCKET, CATALOG, ARCHIVE = range(5)
ARCHIVES = ["v7/chunked.hpf", "v7/lz4-small-groups.hpf", "v7/zstd-two-commits.hpf", "v3/none.hpf"]


def seed(name, target, data):
    (OUT / name).write_bytes(bytes([target]) + data)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for golden in ("v7/lz4-small-groups.hpf", "v7/zstd-dictionary.hpf", "v7/none.hpf", "v3/lz4.hpf"):
        path = GOLDEN / golden
        tag = golden.replace("/", "-").replace(".hpf", "")
        for m in sorted(path.glob("manifest-*.hpfm")):
            seed(f"manifest-{tag}", MANIFEST, m.read_bytes())
        part = (path / "part-00000001.hpfp").read_bytes()
        if len(part) < 64 << 10:  # small seeds keep the fuzzer fast (none.hpf's part is 118 KB)
            seed(f"part-{tag}", PART, part[16:])
        with hpf.open(path) as a:
            s = a.manifest.segments[0]
            if s.file_length:  # version 4 and later: sections of the segment file
                segment = (path / f"seg-{s.segment_id:08d}.hpfs").read_bytes()
                b = s.buckets[0]
                seed(f"bucket-{tag}", BUCKET, segment[b.offset:b.offset + b.file_length])
                rows = s.entry_count + s.tombstone_count
                catalog = segment[16:16 + s.catalog_length]
                seed(f"catalog-{tag}", CATALOG, struct.pack("<I", rows) + catalog)
    for i, golden in enumerate(ARCHIVES):
        seed(f"archive-{i}-intact", ARCHIVE, bytes([i]))
        # One change in each file: the first file's byte 100 flipped, and so on.
        changes = b"".join(struct.pack("<BIB", f, 100 + 37 * f, 0x10) for f in range(3))
        seed(f"archive-{i}-changed", ARCHIVE, bytes([i]) + changes)


if __name__ == "__main__":
    main()
