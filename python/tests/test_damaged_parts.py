"""A part file cut short or missing is a damaged part, not a damaged archive (as Java judges it):
the archive opens and lists, the other parts' entries and those before the cut read, the entries
past the cut are lost naming the cut, and verify reports the part. And an archive replaced under
its path is a new archive: not current, and an Archive opened before never reads its files."""

import random
import shutil

import pytest

import hpf_archive as hpf


@pytest.fixture()
def two_parts(tmp_path, java_hpf):
    rnd = random.Random(31)
    files = {}
    for i in range(20):
        tree = tmp_path / ("one" if i < 10 else "two")
        tree.mkdir(exist_ok=True)
        files[f"f{i:02d}.bin"] = rnd.randbytes(5000 + 100 * i)
        (tree / f"f{i:02d}.bin").write_bytes(files[f"f{i:02d}.bin"])
    archive = tmp_path / "a.hpf"
    java_hpf("create", archive, tmp_path / "one")
    java_hpf("add", archive, tmp_path / "two")
    return archive, files


def test_a_part_cut_short_loses_only_the_entries_past_the_cut(two_parts):
    archive, files = two_parts
    part = archive / "part-00000002.hpfp"
    cut = part.stat().st_size // 2
    with open(part, "r+b") as f:
        f.truncate(cut)
    with hpf.open(archive) as a:
        assert [e.name for e in a.list("")] == sorted(files)
        lost = 0
        for name, data in files.items():
            try:
                assert a.get(name) == data
            except hpf.CorruptArchive as e:
                assert f"cut short at {cut}" in str(e) and "part-00000002.hpfp" in str(e), str(e)
                lost += 1
        assert 0 < lost < 10
        with pytest.raises(hpf.CorruptArchive, match="part-00000002.hpfp"):
            a.verify()


def test_a_missing_part_loses_only_its_entries(two_parts):
    archive, files = two_parts
    (archive / "part-00000002.hpfp").unlink()
    with hpf.open(archive) as a:
        read = sum(1 for name in files if _reads(a, name, files[name]))
        assert read == 10


def _reads(a, name, data):
    try:
        assert a.get(name) == data
        return True
    except hpf.CorruptArchive as e:
        assert "missing" in str(e), str(e)
        return False


def test_an_archive_replaced_under_its_path_is_a_new_archive(tmp_path, java_hpf):
    rnd = random.Random(32)
    trees = {}
    for version in ("a", "b"):
        src = tmp_path / f"src-{version}"
        src.mkdir()
        trees[version] = {f"e{i}.bin": rnd.randbytes(3000 + 7 * i) for i in range(30)}
        for name, data in trees[version].items():
            (src / name).write_bytes(data)
        java_hpf("create", tmp_path / f"{version}.hpf", src)
    served = tmp_path / "x.hpf"
    shutil.copytree(tmp_path / "a.hpf", served)
    before = hpf.open(served)  # no part mapped yet
    old = hpf.open(served)
    assert old.get("e1.bin") == trees["a"]["e1.bin"]
    assert old.is_current()
    (served).rename(tmp_path / "gone.hpf")
    (tmp_path / "b.hpf").rename(served)  # same generation number, same names and sizes
    assert not old.is_current()
    assert old.get("e1.bin") == trees["a"]["e1.bin"]  # its files stay the ones it opened
    with pytest.raises(hpf.ArchiveReplaced):
        before.get("e2.bin")
    with hpf.open(served) as now:
        assert now.get("e2.bin") == trees["b"]["e2.bin"]
    before.close()
    old.close()
