"""Archives made by the Java CLI during the test run (every codec, several segments, tombstones,
replaced names, unicode and empty entries) read entry by entry against the source files."""

import random

import pytest

import hpf_archive as hpf


def make_tree(root, seed, count):
    rnd = random.Random(seed)
    files = {}
    for i in range(count):
        depth = rnd.randrange(3)
        parts = [rnd.choice(["logs", "img", "données", "日本", "a b"]) + str(rnd.randrange(3))
                 for _ in range(depth)]
        name = "/".join(parts + [f"f{i}.{rnd.choice(['txt', 'bin', 'log'])}"])
        size = rnd.choice([0, 1, 100, 4096, rnd.randrange(20000), 70000])
        if rnd.random() < 0.5:
            data = rnd.randbytes(size)
        else:
            data = (f"{i} the quick brown fox jumps over the lazy dog\n" * (size // 45 + 1)).encode()[:size]
        files[name] = data
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return files


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
        prefix = names[len(names) // 2].split("/")[0] + "/"
        assert [e.name for e in a.list(prefix)] == [n for n in names if n.startswith(prefix)]
