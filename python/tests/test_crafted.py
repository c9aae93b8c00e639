"""The crafted corpus (hpf-core's CraftedCorpus, run here with java): archives no hpf writer
makes, each with the verdict Java's verify gives it. The Python reader must judge each alike."""

import subprocess
import sys

import pytest

import hpf_archive as hpf

from conftest import CLI_JAR, ROOT

TEST_CLASSES = ROOT / "hpf-core" / "target" / "test-classes"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    if not (TEST_CLASSES / "io" / "hpf" / "archive" / "CraftedCorpus.class").exists():
        pytest.fail(f"{TEST_CLASSES} lacks CraftedCorpus: build the project first (mvn verify)")
    out = tmp_path_factory.mktemp("crafted")
    subprocess.run(["java", "-cp", f"{TEST_CLASSES}:{CLI_JAR}", "io.hpf.archive.CraftedCorpus",
                    str(out)], check=True)
    cases = []
    for line in (out / "expected.tsv").read_text(encoding="utf-8").splitlines():
        name, verdict, *text = line.split("\t")
        cases.append((out / name, verdict, text[0] if text else None))
    assert cases
    return cases


VERIFY_IN_512_MIB = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))
import hpf_archive as hpf
try:
    with hpf.open(sys.argv[1]) as a:
        a.verify()
    print("ok")
except hpf.CorruptArchive as e:
    print("problem\t" + str(e))
"""


def test_every_case_is_judged_as_java_judges_it_in_512_mib(corpus):
    """Each in a process of its own limited to 512 MiB of address space (zstd bombs included),
    within seconds."""
    for path, verdict, text in corpus:
        run = subprocess.run([sys.executable, "-c", VERIFY_IN_512_MIB, str(path)],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, (path.name, run.stderr[-2000:])
        got = run.stdout.strip()
        if verdict == "ok":
            assert got == "ok", (path.name, got)
        else:
            assert got.startswith("problem\t") and text in got, (path.name, got)


def test_a_name_that_is_also_a_directory_is_listed_once_as_the_directory(corpus):
    path = next(p for p, _, _ in corpus if p.name == "name-clash.hpf")
    with hpf.open(str(path)) as a:
        children = [c if isinstance(c, str) else ("file", c.name) for c in a.children("d")]
        assert children == [("file", "d/x-1"), "d/x"]  # a directory sorts as "d/x/"
        assert a.get("d/x") == b"the file d/x"  # still read by its name
        assert a.get("d/x/y") == b"under d/x"
    import fsspec
    fs = fsspec.filesystem("hpf", fo=str(path))
    assert [(i["name"], i["type"]) for i in fs.ls("d")] == [
        ("d/x-1", "file"), ("d/x", "directory")]


def _case(corpus, name):
    return str(next(p for p, _, _ in corpus if p.name == name))


def test_a_read_from_an_offset_hands_out_only_checked_bytes(corpus):
    """FORMAT.md "Chunked content": a seek reads only the chunks it touches, each checked; content
    in one piece over 1 MiB is checked whole before a byte of it is handed out."""
    with hpf.open(_case(corpus, "chunk-damaged.hpf")) as a:
        good = hpf.open(_case(corpus, "chunked.hpf")).get("big")
        with a.open("big") as f:
            f.seek(100)
            assert f.read(1000) == good[100:1100]  # chunk 0: intact
            f.seek(3 * 65536 + 5)
            assert f.read(50) == good[3 * 65536 + 5:3 * 65536 + 55]  # chunk 3, after the damage
            f.seek(2 * 65536 + 1)
            with pytest.raises(hpf.CorruptArchive, match="chunk 2"):
                f.read(10)
    with hpf.open(_case(corpus, "one-piece-damaged.hpf")) as a:
        with pytest.raises(hpf.CorruptArchive, match="checksum mismatch"):
            with a.open("big") as f:
                f.seek(1000)
                f.read(10)


def test_a_name_that_is_not_utf8_is_listed_and_read_by_its_listed_name(corpus):
    """FORMAT.md "Entry names": the byte kept as U+DCFF, as Java keeps it."""
    with hpf.open(_case(corpus, "name-not-utf8.hpf")) as a:
        names = [e.name for e in a.list()]
        assert names == ["d/\udcff", "e"]
        assert a.get(names[0]) == b"x"
        assert names[0].encode("utf-8", "surrogateescape") == b"d/\xff"
