"""Fuzzing of the Python reader (docs/FUZZING.md) with Hypothesis, from the seeds Java's
ArchiveFuzzTest uses (the golden archives' files): manifests and whole archives with bytes
changed. The property, as for Java: right bytes, or a CorruptArchive (an UnsupportedVersion, a
NotFound for a name whose index was damaged) naming the place; never another exception.

The default suite runs a short session; scripts/fuzz.sh SECONDS runs a longer one."""

import os
import pathlib
import shutil
import tempfile

from hypothesis import HealthCheck, given, settings, strategies as st

import hpf_archive as hpf
from hpf_archive import manifest as manifests
from conftest import ROOT
from test_golden import GOLDEN, chunked_model, model

SEEDS = (ROOT / "hpf-core" / "src" / "test" / "resources" / "io" / "hpf" / "archive"
         / "ArchiveFuzzTestInputs" / "everyParser")
MANIFEST_SEEDS = sorted(p.read_bytes()[1:] for p in SEEDS.glob("manifest-*"))
ARCHIVES = ["v7/chunked.hpf", "v7/lz4-small-groups.hpf", "v7/zstd-two-commits.hpf", "v3/none.hpf"]
SECONDS = float(os.environ.get("HPF_FUZZ_SECONDS", "0"))
FUZZ = settings(max_examples=max(60, int(SECONDS * 50)), deadline=None, database=None,
                suppress_health_check=list(HealthCheck))
EXPECTED = (hpf.CorruptArchive, hpf.UnsupportedVersion)


@st.composite
def changes(draw, files):
    """Up to 4 changes, each a byte of one of `files` (by index) XORed with a non-zero byte, or the
    file cut at a place."""
    return draw(st.lists(st.tuples(st.integers(0, files - 1), st.integers(0, 2**32 - 1),
                                   st.integers(0, 255)), min_size=1, max_size=4))


def _apply(data, change):
    _, at, xor = change
    if not data:
        return data
    at %= len(data)
    if xor == 0:
        return data[:at]  # cut short
    return data[:at] + bytes([data[at] ^ xor]) + data[at + 1:]


@FUZZ
@given(st.sampled_from(MANIFEST_SEEDS), changes(1))
def test_a_changed_manifest_is_read_or_refused(seed, cs):
    data = seed
    for c in cs:
        data = _apply(data, c)
    try:
        manifests.parse(data, "fuzz.hpfm")
    except EXPECTED:
        pass


@FUZZ
@given(st.sampled_from(ARCHIVES), st.data())
def test_a_changed_archive_gives_right_bytes_or_names_the_damage(golden, data):
    expected = model()
    if golden.endswith("chunked.hpf"):
        expected.update(chunked_model())
    with tempfile.TemporaryDirectory() as tmp:
        target = pathlib.Path(tmp) / "a.hpf"
        shutil.copytree(GOLDEN / golden, target)
        files = sorted(target.iterdir())
        for c in data.draw(changes(len(files))):
            f = files[c[0]]
            f.write_bytes(_apply(f.read_bytes(), c))
        try:
            with hpf.open(target) as a:
                for name, content in expected.items():
                    try:
                        got = a.get(name)
                    except (hpf.NotFound,) + EXPECTED:
                        continue
                    if content is not None:  # bin/noise.bin: Java's random bytes, not modelled
                        assert got == content, name
                for _ in a.list():
                    pass
                a.verify()
        except EXPECTED:
            pass
