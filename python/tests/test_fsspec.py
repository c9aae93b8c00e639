"""The fsspec file system (protocol "hpf") against a model: fsspec's own local file system over
the source tree the archive was made from. Also pandas and pyarrow reading through it, both URL
forms, and the registration through the entry point."""

import io
import pickle
import random

import fsspec
import pandas as pd
import pytest
from fsspec.implementations.local import LocalFileSystem

import hpf_archive as hpf
from conftest import CSV
from hpf_archive.filesystem import HpfFileSystem


@pytest.fixture(scope="module")
def both(tree):
    """(hpf file system bound to the archive, local file system, source root, model)."""
    src, archive, files = tree
    return HpfFileSystem(fo=str(archive)), LocalFileSystem(), str(src), files


def relative(root, listing):
    """A local listing as names relative to the source root, with what both sides report. The
    root itself is left out: fsspec's find lists the directory asked about except the root."""
    out = []
    for e in listing:
        name = e["name"] if isinstance(e, dict) else e
        rel = name[len(root):].lstrip("/")
        if not rel:
            continue
        if isinstance(e, dict):
            out.append((rel, e["type"], e["size"] if e["type"] == "file" else 0))
        else:
            out.append(rel)
    return sorted(out)


def ours(listing):
    return sorted((e["name"], e["type"], e["size"]) if isinstance(e, dict) else e for e in listing)


def test_ls_info_find_agree_with_the_source_tree(both):
    fs, local, root, files = both
    directories = [""] + sorted(relative(root, local.find(root, withdirs=True, detail=True).values()))
    directories = [d if isinstance(d, str) else d[0] for d in directories
                   if isinstance(d, str) or d[1] == "directory"]
    assert len(directories) > 5
    for d in directories:
        at = f"{root}/{d}" if d else root
        assert ours(fs.ls(d)) == relative(root, local.ls(at, detail=True)), d
        assert sorted(fs.ls(d, detail=False)) == relative(root, local.ls(at, detail=False)), d
        assert fs.info(d)["type"] == "directory" and fs.isdir(d) and not fs.isfile(d)
        assert fs.find(d) == relative(root, local.find(at)), d
        assert fs.find(d, withdirs=True) == relative(root, local.find(at, withdirs=True)), d
        assert fs.find(d, maxdepth=1) == relative(root, local.find(at, maxdepth=1)), d
        assert (fs.find(d, maxdepth=2, withdirs=True)
                == relative(root, local.find(at, maxdepth=2, withdirs=True))), d
    for name, content in files.items():
        info = fs.info(name)
        assert (info["name"], info["type"], info["size"]) == (name, "file", len(content))
        assert fs.ls(name, detail=False) == [name] and fs.find(name) == [name]
    for missing in ["nope", "logs0/nope.txt", next(iter(files)) + "/x"]:
        assert not fs.exists(missing)
        with pytest.raises(FileNotFoundError):
            fs.info(missing)
        with pytest.raises(FileNotFoundError):
            fs.ls(missing)


@pytest.mark.parametrize("pattern", ["*", "*/*", "**/*.txt", "logs*/**", "日本*/*", "*/f1?.*",
                                     "2024/*/meta.csv", "big/*.bin", "[ai]*/*"])
def test_glob_agrees_with_the_source_tree(both, pattern):
    fs, local, root, _ = both
    assert fs.glob(pattern) == relative(root, local.glob(f"{root}/{pattern}"))


def test_cat_whole_and_ranges_give_the_source_bytes(both):
    fs, _, _, files = both
    for name, content in files.items():
        assert fs.cat_file(name) == content, name
    rnd = random.Random(8)
    for name in ["big/blob.bin", CSV, max(files, key=lambda n: len(files[n]) if n != "big/blob.bin" else 0)]:
        content = files[name]
        n = len(content)
        ranges = [(0, 10), (None, None), (n // 3, n // 2), (-100, None), (None, -5), (5, 5),
                  (n - 3, n + 50), (n + 10, None)] + [tuple(sorted(rnd.sample(range(n), 2))) for _ in range(6)]
        for start, end in ranges:
            expected = content[slice(start, end)]
            assert fs.cat_file(name, start, end) == expected, (name, start, end)
        starts = [r[0] or 0 for r in ranges[:6]]
        ends = [r[1] if r[1] is not None else n for r in ranges[:6]]
        assert fs.cat_ranges([name] * 6, starts, ends) == [content[s:e] for s, e in zip(starts, ends)]
    assert fs.cat(["big/blob.bin", CSV]) == {"big/blob.bin": files["big/blob.bin"], CSV: files[CSV]}


def test_open_seeks_anywhere_and_reads_text(both):
    fs, _, _, files = both
    content = files["big/blob.bin"]
    rnd = random.Random(9)
    with fs.open("big/blob.bin") as f:
        for _ in range(25):  # forward and backward, across the 1 MiB read-ahead
            at, n = rnd.randrange(len(content)), rnd.randrange(1, 200_000)
            f.seek(at)
            assert f.read(n) == content[at:at + n]
            assert f.tell() == min(len(content), at + n)
        f.seek(-7, io.SEEK_END)
        assert f.read() == content[-7:]
    with fs.open(CSV, "r") as f:
        assert f.readline() == "city,year,visitors\n"
    with pytest.raises(IsADirectoryError):
        fs.open("big")


def test_pandas_reads_a_csv_entry_in_both_url_forms(tree):
    src, archive, _ = tree
    expected = pd.read_csv(src / CSV)
    java_form = pd.read_csv(f"hpf://file-{archive}/{CSV}")
    memory = fsspec.filesystem("memory")
    for p in archive.iterdir():
        memory.pipe_file(f"/csv-test/{archive.name}/{p.name}", p.read_bytes())
    chained = pd.read_csv(f"hpf://{CSV}::memory://csv-test/{archive.name}")
    pd.testing.assert_frame_equal(java_form, expected)
    pd.testing.assert_frame_equal(chained, expected)
    assert list(expected["city"]) == ["Paris", "Oslo", "Lima"]


def test_pyarrow_reads_through_fsspec_handler(both):
    pafs = pytest.importorskip("pyarrow.fs")  # pyarrow is installed by scripts/test.sh
    import pyarrow.csv

    fs, _, _, files = both
    arrow = pafs.PyFileSystem(pafs.FSSpecHandler(fs))
    infos = arrow.get_file_info(pafs.FileSelector("", recursive=True))
    assert sorted(i.path for i in infos if i.type == pafs.FileType.File) == sorted(files)
    with arrow.open_input_file("big/blob.bin") as f:
        f.seek(1 << 20)
        assert f.read(1000) == files["big/blob.bin"][1 << 20:(1 << 20) + 1000]
    with arrow.open_input_stream(CSV) as f:
        table = pyarrow.csv.read_csv(f)
    assert table.column("visitors").to_pylist() == [17, 5, 9]


def test_the_java_form_names_archive_and_entry(tree):
    src, archive, files = tree
    fs = fsspec.filesystem("hpf")  # unbound: each path names its archive
    prefix = f"file-{archive}"
    assert fs.cat_file(f"{prefix}/{CSV}") == files[CSV]
    assert fs.cat_file(f"hpf://{archive}/{CSV}") == files[CSV]  # empty authority: local disk
    assert sorted(fs.ls(f"{prefix}/2024/01", detail=False)) == [f"{prefix}/{CSV}"]
    assert fs.find(f"{prefix}/big") == [f"{prefix}/big/blob.bin"]
    assert fs.info(prefix)["type"] == "directory"
    with pytest.raises(FileNotFoundError, match="names no archive"):
        fs.ls(f"file-{src}")
    with pytest.raises(ValueError, match="authority"):
        fs.ls(f"nodash/{archive}/x")


def test_registered_as_hpf_through_the_entry_point():
    # No register_implementation anywhere: fsspec finds the class through the installed
    # package's `fsspec.specs` entry point (scripts/test.sh installs ./python with pip).
    assert fsspec.get_filesystem_class("hpf") is HpfFileSystem


def test_changes_are_refused_as_read_only(both):
    fs, _, _, _ = both
    for change in (lambda: fs.rm(CSV), lambda: fs.pipe_file("new", b"x"), lambda: fs.mkdir("d"),
                   lambda: fs.open("new.txt", "wb"), lambda: fs.mv(CSV, "moved.csv"),
                   lambda: fs.touch("t"), lambda: fs.put_file(__file__, "x.py")):
        with pytest.raises(hpf.ReadOnly, match="read-only"):
            change()
    with pytest.raises(PermissionError):
        fs.rm(CSV)
    assert fs.cat_file(CSV)  # nothing changed


def test_pickled_file_systems_open_the_archive_again(both):
    fs, _, _, files = both
    again = pickle.loads(pickle.dumps(fs))
    assert again.cat_file(CSV) == files[CSV]


def test_remote_storage_reads_index_pages_once(tree):
    """Through any fsspec file system (memory here), a warm lookup costs one positional read:
    the entry's. Bucket and catalog pages stay cached."""
    _, archive, files = tree
    calls = []

    class Counting(fsspec.implementations.memory.MemoryFileSystem):
        cachable = False

        def cat_file(self, path, start=None, end=None, **kwargs):
            calls.append((path, start, end))
            return super().cat_file(path, start=start, end=end, **kwargs)

    memory = Counting()
    for p in archive.iterdir():
        memory.pipe_file(f"/remote/{archive.name}/{p.name}", p.read_bytes())
    with hpf.open(f"/remote/{archive.name}", fs=memory) as a:
        assert [e.name for e in a.list()] == sorted(files, key=lambda n: n.encode())
        for name, content in files.items():
            assert a.get(name) == content
        small = [n for n in files if len(files[n]) < 100_000]
        calls.clear()
        for name in small:
            assert a.get(name) == files[name]
        assert len(calls) == len(small)
        assert all(path.endswith(".hpfp") for path, _, _ in calls)


def test_later_commits_are_seen_and_open_streams_keep_their_generation(tmp_path, java_hpf):
    src = tmp_path / "src"
    (src / "d").mkdir(parents=True)
    (src / "d" / "a.txt").write_bytes(b"first")
    archive = tmp_path / "c.hpf"
    java_hpf("create", archive, src)
    now = HpfFileSystem(fo=str(archive), refresh_interval=0, skip_instance_cache=True)
    never = HpfFileSystem(fo=str(archive), refresh_interval=None, skip_instance_cache=True)
    assert now.cat_file("d/a.txt") == never.cat_file("d/a.txt") == b"first"
    stream = now.open("d/a.txt")
    (src / "d" / "a.txt").write_bytes(b"second")
    (src / "d" / "b.txt").write_bytes(b"new")
    java_hpf("add", "--replace", archive, src)
    assert now.cat_file("d/a.txt") == b"second" and now.ls("d", detail=False) == ["d/a.txt", "d/b.txt"]
    assert never.cat_file("d/a.txt") == b"first" and not never.exists("d/b.txt")
    assert stream.read() == b"first"
    never.invalidate_cache()
    assert never.cat_file("d/b.txt") == b"new"
