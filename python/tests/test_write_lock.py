"""The writer lock between Python and Java writers (each refuses while the other holds it, naming
the holder), a Python writer killed at random instants (the archive stays at its last commit,
and the next writer, Python or Java, recovers what was complete), and bad input refused before
anything is written."""

import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

import hpf_archive as hpf
from conftest import ROOT

CHILD = r"""
import sys, hpf_archive as hpf
archive, start = sys.argv[1], int(sys.argv[2])
w = hpf.append(archive)
print("locked", flush=True)
i = start
while True:
    for _ in range(37):
        w.add(f"k/{i}", (b"%d;" % i) * (i % 300))
        i += 1
    w.commit()
    print("committed", i, flush=True)
"""


def _content(i):
    return (b"%d;" % i) * (i % 300)


def test_java_add_refuses_while_python_holds_the_lock_and_names_it(tmp_path, java_cli):
    archive = tmp_path / "a.hpf"
    with hpf.create(archive) as w:
        w.add("a", b"1")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "b").write_bytes(b"2")
    with hpf.append(archive) as w:
        w.add("c", b"3")
        done = java_cli("add", archive, tmp_path / "src", check=False)
        assert done.returncode == 1
        assert "locked by another writer" in done.stderr
        assert f"pid {os.getpid()}," in done.stderr and len(done.stderr.strip().splitlines()) == 1
    java_cli("add", archive, tmp_path / "src")  # let go: Java takes it
    with hpf.open(archive) as a:
        assert [e.name for e in a.list()] == ["a", "b", "c"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_python_append_refuses_while_a_java_writer_holds_the_lock(tmp_path):
    root = tmp_path / "archives"
    root.mkdir()
    with hpf.create(root / "logs.hpf") as w:
        w.add("a.log", b"a")
    (tmp_path / "token").write_text("secret\n")
    port = _free_port()
    server = subprocess.Popen([str(ROOT / "hpf"), "serve", str(root), "--writable", "--idle", "120",
                               "--token-file", str(tmp_path / "token"), "--port", str(port),
                               "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
    try:
        put = urllib.request.Request(f"http://127.0.0.1:{port}/logs/b.log", data=b"b",
                                     method="PUT", headers={"Authorization": "Bearer secret"})
        for _ in range(300):
            try:
                with urllib.request.urlopen(put, timeout=10) as r:
                    assert r.status in (200, 201, 204)
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("hpf serve did not answer")
        with pytest.raises(hpf.ArchiveLocked) as raised:
            hpf.append(root / "logs.hpf")
        message = str(raised.value)
        assert f"pid {server.pid}," in message or "pid " in message  # the server's JVM
        assert str(root / "logs.hpf" / "hpf.lock") in message and "\n" not in message
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    with hpf.append(root / "logs.hpf") as w:  # the server let it go on its way out
        w.add("c.log", b"c")
    with hpf.open(root / "logs.hpf") as a:
        assert [a.get(n) for n in ("a.log", "b.log", "c.log")] == [b"a", b"b", b"c"]


@pytest.mark.parametrize("trial", range(4))
def test_a_python_writer_killed_at_any_instant_leaves_its_last_commit(tmp_path, java_cli, trial):
    archive = tmp_path / "a.hpf"
    with hpf.create(archive) as w:
        w.add("first", b"first")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(archive), "0"], env=env,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "locked"
    time.sleep(random.Random(trial).uniform(0.05, 1.5))
    child.kill()
    committed = 0
    for line in child.stdout.read().splitlines():
        if line.startswith("committed"):
            committed = int(line.split()[1])
    child.wait()
    assert (archive / "hpf.lock").exists()  # a dead writer's lock, taken over below
    if trial % 2:
        java_cli("recover", archive)
        with hpf.append(archive) as w:
            w.add("after", b"after")
    else:
        with hpf.append(archive) as w:
            w.add("after", b"after")
    java_cli("verify", archive)
    with hpf.open(archive) as a:
        names = {e.name for e in a.list()}
        assert {"first", "after"} <= names
        keys = sorted(int(n[2:]) for n in names if n.startswith("k/"))
        # Every committed entry is there; past them only whole, checked ones were recovered.
        assert keys[:committed] == list(range(committed))
        assert keys == list(range(len(keys)))
        for i in keys:
            assert a.get(f"k/{i}") == _content(i)


def test_bad_input_raises_before_anything_is_written(tmp_path):
    archive = tmp_path / "a.hpf"
    with hpf.create(archive) as w:
        w.add("d/x", b"x")
    before = sorted(os.listdir(archive))
    with hpf.append(archive) as w:
        for bad in ("", "/abs", "a/../b", "C:x", "nul\0", "\udc80", "x" * 70000):
            with pytest.raises(ValueError):
                w.add(bad, b"")
        with pytest.raises(hpf.NameConflict):
            w.add("d/x", b"again")  # exists: replace=True to replace it
        with pytest.raises(hpf.NameConflict):
            w.add("d", b"a file where a directory is")
        with pytest.raises(hpf.NameConflict):
            w.add("d/x/y", b"under a file")
        with pytest.raises(hpf.NotFound):
            w.delete("missing")
        with pytest.raises(TypeError):
            w.add("t", b"", attributes={"k": 1})
    assert sorted(os.listdir(archive)) == before  # nothing to commit: no part, no manifest
    with pytest.raises(RuntimeError):
        with hpf.append(archive) as w:
            w.add("new", b"n")
            raise RuntimeError("the block failed")
    assert sorted(os.listdir(archive)) == before  # its part removed, nothing committed
    with pytest.raises(FileExistsError):
        hpf.create(archive)
    with pytest.raises(FileNotFoundError):
        hpf.append(tmp_path / "none.hpf")
    with hpf.open(archive) as a:
        assert [e.name for e in a.list()] == ["d/x"]


def test_python_appends_to_a_java_zstd_archive_with_its_dictionary(tmp_path, java_cli):
    src = tmp_path / "src"
    src.mkdir()
    for i in range(600):
        (src / f"{i}.json").write_text(f'{{"id": {i}, "name": "user {i}", "tags": ["a", "b"]}}\n')
    java_cli("create", "--codec", "zstd", tmp_path / "a.hpf", src)
    with hpf.open(tmp_path / "a.hpf") as a:
        dictionaries = list(a.manifest.dictionaries)
    assert dictionaries, "Java trained a dictionary"
    with hpf.append(tmp_path / "a.hpf", group_size=0, group_max=0) as w:
        for i in range(600, 700):
            w.add(f"{i}.json", f'{{"id": {i}, "name": "user {i}", "tags": ["a", "b"]}}\n'.encode())
    java_cli("verify", tmp_path / "a.hpf")
    with hpf.open(tmp_path / "a.hpf") as a:
        info = a.stat("650.json")
        assert (info.codec, info.dictionary_id) == (2, dictionaries[-1])
        assert a.manifest.writer_settings.group_bytes == 0
        assert a.get("650.json").startswith(b'{"id": 650')
    assert java_cli("cat", tmp_path / "a.hpf", "650.json").stdout.startswith('{"id": 650')


@pytest.fixture
def small_disk(tmp_path):
    """A file system of 2 MiB (a tmpfs: mounting one needs root, which the suite runs as)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    where = tmp_path / "small"
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_disk_is_an_error_and_leaves_the_last_commit(small_disk, java_cli):
    archive = small_disk / "a.hpf"
    with hpf.create(archive, codec="none") as w:
        w.add("kept", b"kept")
    rnd = random.Random(3)
    with pytest.raises(OSError) as raised:
        with hpf.append(archive) as w:
            for i in range(40):
                w.add(f"big/{i}", rnd.randbytes(100_000))  # 4 MB into 2 MiB
    assert "No space left" in str(raised.value) or raised.value.errno == 28
    assert not (archive / "hpf.lock").exists()  # the failed writer let the lock go
    java_cli("verify", archive)
    with hpf.open(archive) as a:
        assert [e.name for e in a.list()] == ["kept"]
    with hpf.append(archive) as w:  # room again (the failed part went): the next writer writes
        w.add("after", b"after")
    with hpf.open(archive) as a:
        assert [e.name for e in a.list()] == ["after", "kept"]
