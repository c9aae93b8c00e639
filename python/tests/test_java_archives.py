"""Archives made by the Java CLI during the test run (every codec, several segments, tombstones,
replaced names, unicode and empty entries) read entry by entry against the source files."""

import pytest

import hpf_archive as hpf
from conftest import make_tree


@pytest.mark.parametrize("codec", ["none", "lz4", "zstd"])
def test_every_entry_of_a_changed_archive_reads_as_its_source(tmp_path, java_hpf, codec):
    first = make_tree(tmp_path / "first", 1, 150)
    second = make_tree(tmp_path / "second", 2, 60)
    archive = tmp_path / "a.hpf"
    java_hpf("create", "--codec", codec, archive, tmp_path / "first")
    # A second segment: new names, and names of the first tree replaced with new content.
    replaced = sorted(first)[1::7]
    for name in replaced:
        data = ("replaced " + name).encode()
        second[name] = data
        p = tmp_path / "second" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    java_hpf("add", "--replace", archive, tmp_path / "second")
    expected = dict(first)
    expected.update(second)
    # A third: tombstones.
    removed = [n for n in sorted(expected)[::9] if n not in replaced]
    java_hpf("rm", archive, *removed)
    for name in removed:
        del expected[name]
    with hpf.open(archive) as a:
        assert len(a.manifest.segments) >= 2
        names = [e.name for e in a.list()]
        assert names == sorted(expected, key=lambda n: n.encode())
        for name, content in expected.items():
            assert a.get(name) == content, name
        for name in removed:
            assert name not in a
        # Lookups (hash index) agree with the listing (catalogs), and misses miss.
        for info in a.list():
            assert a.read(info) == a.get(info.name)
            assert a.stat(info.name).raw_length == info.raw_length
        for miss in ["nope", names[0] + "x", "../" + names[0], "/" + names[0], ""]:
            assert a.stat(miss) is None and miss not in a
        deep = next(n for n in names if "/" in n)
        assert a.get(deep.replace("/", "//", 1) + "/") == expected[deep]  # normalized first
        assert a.get("./" + deep) == expected[deep]
        # By now every bucket was looked up often enough to get a slot table (index.SlotTables):
        # the same answers through the tables, misses and tombstones included.
        assert a._indexes[0]._tables._keys > 0
        for name, content in expected.items():
            assert a.get(name) == content, name
        for name in removed + ["nope", names[0] + "x"]:
            assert name not in a
        prefix = names[len(names) // 2].split("/")[0] + "/"
        assert [e.name for e in a.list(prefix)] == [n for n in names if n.startswith(prefix)]


def test_verify_asks_each_live_row_of_one_index_only(tmp_path, java_hpf):
    """verify checks a live row against its own segment's index, so its lookups are one per
    row whatever the number of segments (a lookup through every newer segment made it rows x
    segments, minutes on an archive crafted with many)."""
    archive = tmp_path / "a.hpf"
    # Each tree's names under a directory of its own (no name twice), each of another size tier
    # (log4 of its rows), so that the tiered compaction after each commit merges none.
    for i, count in enumerate([200, 40, 10, 3]):
        make_tree(tmp_path / f"t{i}" / f"b{i}", 10 + i, count)
        java_hpf("create" if i == 0 else "add", archive, tmp_path / f"t{i}")
    with hpf.open(archive) as a:
        segments = len(a.manifest.segments)
        assert segments == 4
        calls = []
        for index in a._indexes:
            real = index.find
            index.find = lambda key, h, real=real: calls.append(key) or real(key, h)
        live = a.verify()
        assert len(calls) == live, (len(calls), live, segments)
