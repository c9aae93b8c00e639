"""python -m hpf_archive and Archive.verify against a golden archive and a damaged copy."""

import json
import os
import shutil
import subprocess
import sys

import hpf_archive as hpf
from conftest import ROOT
from test_golden import GOLDEN, model

ENV_PATH = str(ROOT / "python" / "src")


def cli(*args):
    env = dict(os.environ, PYTHONPATH=ENV_PATH)
    return subprocess.run([sys.executable, "-m", "hpf_archive", *map(str, args)],
                          capture_output=True, env=env)


def test_ls_cat_get_info_verify(tmp_path):
    archive = GOLDEN / "v2" / "zstd-dictionary.hpf"
    names = sorted(model(), key=lambda n: n.encode())
    r = cli("ls", archive)
    assert r.returncode == 0 and r.stdout.decode().splitlines() == names
    r = cli("cat", archive, "logs/2026/11/app-2.log")
    assert r.stdout == model()["logs/2026/11/app-2.log"]
    r = cli("get", archive, "unicode/日本語/ファイル.txt", "one", "-o", tmp_path)
    assert r.returncode == 0
    assert (tmp_path / "unicode" / "日本語" / "ファイル.txt").read_bytes() == "こんにちは".encode()
    out = tmp_path / "refused"
    r = cli("get", archive, "one", "../escape", "-o", out)  # checked before anything is written
    assert r.returncode == 1 and "../escape" in r.stderr.decode() and not out.exists()
    assert f'"entries": {len(names)}' in cli("info", archive).stdout.decode()
    assert '"codec"' not in cli("info", archive).stdout.decode()  # version 2 records no settings
    v5 = json.loads(cli("info", GOLDEN / "v5" / "lz4-small-groups.hpf").stdout)
    assert (v5["codec"], v5["groupBytes"], v5["groupEntryMaxBytes"]) == ("lz4", 1024, 512)
    v6 = json.loads(cli("info", GOLDEN / "v6" / "zstd-level-10-solid.hpf").stdout)
    assert (v6["codec"], v6["groupBytes"], v6["zstdLevel"]) == ("zstd", 262144, 10)
    assert cli("verify", archive).stdout.decode().strip() == f"ok: {len(names)} entries checked"
    r = cli("cat", archive, "nope")
    assert r.returncode == 1 and r.stderr.decode().count("\n") == 1 and "nope" in r.stderr.decode()
    assert cli("frobnicate", archive).returncode == 2


def test_verify_finds_damage_anywhere(tmp_path):
    copy = tmp_path / "a.hpf"
    shutil.copytree(GOLDEN / "v2" / "none.hpf", copy)
    with hpf.open(copy) as a:
        assert a.verify() == len(model())
        info = a.stat("logs/2026/11/app-59.log")
    part = copy / ("part-%08d.hpfp" % info.part_id)
    data = bytearray(part.read_bytes())
    data[info.offset + info.entry_length - 10] ^= 1
    part.write_bytes(bytes(data))
    r = cli("verify", copy)
    assert r.returncode == 1 and "app-59.log" in r.stderr.decode() and "Traceback" not in r.stderr.decode()
    shutil.copytree(GOLDEN / "v2" / "none.hpf", tmp_path / "b.hpf")
    bucket = next((tmp_path / "b.hpf").glob("seg-*-b*.hpfx"))
    data = bytearray(bucket.read_bytes())
    data[-9] ^= 1  # in the last record: the file footer catches it though no lookup reads it
    bucket.write_bytes(bytes(data))
    r = cli("verify", tmp_path / "b.hpf")
    assert r.returncode == 1 and ".hpfx" in r.stderr.decode()


def test_create_add_rm_as_the_java_cli_names_them(tmp_path, java_cli):
    src = tmp_path / "src"
    (src / "d").mkdir(parents=True)
    (src / "a.txt").write_bytes(b"a")
    (src / "d" / "b.txt").write_bytes(b"b")
    os.symlink(src / "a.txt", src / "link")
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "c.txt").write_bytes(b"c")
    (tmp_path / "one.txt").write_bytes(b"1")
    archive = tmp_path / "a.hpf"
    r = cli("create", archive, src)
    assert r.returncode == 0 and b"skipped" in r.stderr and b"link" in r.stderr, r.stderr
    assert cli("add", archive, tmp_path / "more", tmp_path / "one.txt", "--prefix", "x/"
               ).returncode == 0
    refused = cli("add", archive, tmp_path / "one.txt", "--prefix", "x/")
    assert refused.returncode == 1 and len(refused.stderr.decode().strip().splitlines()) == 1
    assert b"already exists" in refused.stderr
    assert cli("add", archive, tmp_path / "one.txt", "--prefix", "x/", "--replace"
               ).returncode == 0
    assert cli("rm", archive, "d/b.txt").returncode == 0
    missing = cli("rm", archive, "no/such")
    assert missing.returncode == 1 and b"no entry 'no/such'" in missing.stderr
    java_cli("verify", archive)
    listed = java_cli("ls", archive).stdout.split()
    assert listed == ["a.txt", "x/c.txt", "x/one.txt"]
    with hpf.append(archive):  # held: the CLI says who holds it, in one line
        locked = cli("rm", archive, "a.txt")
    assert locked.returncode == 1 and b"locked by another writer" in locked.stderr
    assert len(locked.stderr.decode().strip().splitlines()) == 1
