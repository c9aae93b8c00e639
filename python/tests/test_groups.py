"""Groups of small entries (FORMAT.md "Group", version 3): members found by name in their group,
their rows' places agree with the index, and a damaged group is an error naming its part."""

import shutil

import pytest

import hpf_archive as hpf
from test_corruption import flip
from test_golden import GOLDEN, model


@pytest.fixture
def archive(tmp_path):
    dst = tmp_path / "groups.hpf"
    shutil.copytree(GOLDEN / "v3" / "lz4-small-groups.hpf", dst)
    return dst


def test_members_are_listed_with_their_group_and_found_by_the_index(archive):
    expected = model()
    with hpf.open(archive) as a:
        members = [row for row in a.list() if row.members]
        assert len({row.offset for row in members}) == 3
        for row in members:
            assert a.stat(row.name) == row  # the index leads to the catalog's member
            assert 0 <= row.member < row.members
            assert a.get(row.name) == expected[row.name]
            with a.open(row.name) as f:
                assert f.read() == expected[row.name]
        assert a.verify() == len(expected)


def test_a_damaged_group_is_named_and_other_groups_read(archive):
    expected = model()
    with hpf.open(archive) as a:
        rows = list(a.list())
    victim = next(r for r in rows if r.members)
    part = archive / ("part-%08d.hpfp" % victim.part_id)
    flip(part, victim.offset + 52 + 3)  # inside the group's stored members
    with hpf.open(archive) as a:
        with pytest.raises(hpf.CorruptArchive) as e:
            a.get(victim.name)
        assert str(part) in str(e.value) and "group" in str(e.value)
        others = [r for r in rows if r.offset != victim.offset]
        for r in others:
            assert a.get(r.name) == expected[r.name] or expected[r.name] is None
        with pytest.raises(hpf.CorruptArchive, match="group"):
            a.verify()
