"""The crafted corpus (hpf-core's CraftedCorpus, run here with java): archives no hpf writer
makes, each with the verdict Java's verify gives it. The Python reader must judge each alike."""

import subprocess

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


def test_every_case_is_judged_as_java_judges_it(corpus):
    for path, verdict, text in corpus:
        with hpf.open(str(path)) as a:
            if verdict == "ok":
                a.verify()
            else:
                with pytest.raises(hpf.CorruptArchive) as e:
                    a.verify()
                assert text in str(e.value), (path.name, str(e.value))


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
