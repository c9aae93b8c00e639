"""Parallel writers: tasks in four processes each write through `stage(...).writer(task)`, and one
`commit` makes every finished task's entries the archive's; a failed task is left out, a second
attempt of a task is not committed twice, and an import that dies before its manifest leaves
nothing behind."""

import multiprocessing
import os

import pytest

import hpf_archive as hpf
from hpf_archive.write import commit as commit_module


def _task(args):
    st, task, fail = args
    with st.writer(task) as w:
        for i in range(300):
            w.add(f"t{task}/{i}.bin", _content(task, i))
        if fail:
            raise RuntimeError(f"task {task} failed")
    return task


def _content(task, i):
    return b"%d:%d;" % (task, i) * (i % 97)


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_tasks_in_four_processes_commit_at_once(tmp_path, java_cli, start):
    archive = tmp_path / "a.hpf"
    existing = start == "fork"
    if existing:  # staging into an archive that has entries, and into a new one
        with hpf.create(archive, codec="zstd") as w:
            w.add("old", b"old")
    st = hpf.stage(archive)
    jobs = [(st, t, t == 5) for t in range(8)]
    with multiprocessing.get_context(start).Pool(4) as pool:
        results = [pool.apply_async(_task, (job,)) for job in jobs]
        done = []
        for r in results:
            try:
                done.append(r.get(timeout=120))
            except RuntimeError as e:
                assert "task 5 failed" in str(e)
    assert sorted(done) == [0, 1, 2, 3, 4, 6, 7]
    _task((st, 2, False))  # a second attempt of task 2 that finished too
    assert sorted(st.finished()) == ["0", "1", "2", "3", "4", "6", "7"]
    with hpf.open(archive) if existing else _nothing() as before:
        generation = before.manifest.generation if before else 0
    assert st.commit() == generation + 1
    java_cli("verify", archive)
    with hpf.open(archive) as a:
        expected = {f"t{t}/{i}.bin": _content(t, i) for t in done for i in range(300)}
        if existing:
            expected["old"] = b"old"
            assert a.manifest.writer_settings.codec == 2  # tasks stored as the archive's writers
        assert {e.name: a.get(e.name) for e in a.list()} == expected
        assert a.manifest.history[-1][2].endswith(f": {7 * 300} entries from 7 tasks")
    assert os.listdir(archive).count("_hpf_jobs") == 0  # the staging directory went


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def test_two_tasks_adding_one_name_commit_nothing(tmp_path):
    st = hpf.stage(tmp_path / "a.hpf")
    for task in ("a", "b"):
        with st.writer(task) as w:
            w.add("same", task.encode())
    with pytest.raises(hpf.NameConflict, match="'same' is added by two tasks"):
        st.commit()
    assert not (tmp_path / "a.hpf" / "manifest-0000000001.hpfm").exists()


def test_an_import_that_dies_before_its_manifest_leaves_the_archive_as_it_was(tmp_path, java_cli,
                                                                               monkeypatch):
    archive = tmp_path / "a.hpf"
    with hpf.create(archive) as w:
        w.add("kept", b"kept")
    st = hpf.stage(archive)
    with st.writer(1) as w:
        w.add("imported", b"imported")

    def dies(*args, **kwargs):
        raise OSError("the process died here")

    monkeypatch.setattr(commit_module, "commit_segment", dies)
    with pytest.raises(OSError, match="died"):
        st.commit()
    monkeypatch.undo()
    assert (archive / "hpf.import").exists()  # its parts were moved in, no manifest names them
    with hpf.append(archive) as w:  # the next writer deletes them: never recovered
        w.add("after", b"after")
    assert not (archive / "hpf.import").exists()
    java_cli("verify", archive)
    with hpf.open(archive) as a:
        assert [e.name for e in a.list()] == ["after", "kept"]
