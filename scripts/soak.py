#!/usr/bin/env python3
"""The long-running readers' soak (docs/BENCHMARKS.md, "Soak"): `hpf serve` and `hpf mount` over
the same directory of archives, read by several threads at once for SECONDS, while another thread
commits to one archive (adds that replace, deletes, compactions that reclaim), replaces the other
by renaming a new archive over it, and a fault injector flips bytes of part and segment files and
restores them. Every byte a reader gets must be right: errors (a 500, a cut body, EIO, a 404 of a
name just deleted) are counted, wrong bytes fail the run.

  scripts/soak.py [--seconds 600] [--readers 2] [--port 18490]

Entries check themselves: each is blocks of 4 KiB, each block headed by "name|version|index|"
and filled with bytes drawn from that header (half the names incompressible, half repetitive),
so any aligned range says which entry, version and place it is and can be made again, and one
answer mixing two versions is caught. A JSON line goes to bench-results/soak.jsonl."""

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
HPF = str(HERE / "hpf")
BLOCK = 4096
HEAD = 64
NAMES = [f"d{i % 4}/f{i:03d}.bin" for i in range(48)]


def blocks_of(name):
    """An entry's size in blocks: small, medium (stored raw when incompressible) or chunked."""
    i = int(name[-7:-4])
    return (1, 10, 700)[i % 3] if i % 8 else 3


def block(name, version, index):
    head = f"{name}|{version}|{index}|".encode().ljust(HEAD, b"#")
    if int(name[-7:-4]) % 2:
        return head + hashlib.shake_256(head).digest(BLOCK - HEAD)
    return head + (hashlib.sha256(head).digest() * (BLOCK // 32))[:BLOCK - HEAD]


def content(name, version):
    return b"".join(block(name, version, i) for i in range(blocks_of(name)))


class WrongBytes(AssertionError):
    pass


def check(name, data, offset):
    """The bytes a reader got of `name` from `offset` (block-aligned): each block one this entry
    had at that place, all of one version. Returns the version."""
    if offset % BLOCK or len(data) % BLOCK:
        raise WrongBytes(f"{name}: {len(data)} bytes at {offset}, not whole blocks")
    version = None
    for j in range(len(data) // BLOCK):
        got = data[j * BLOCK:(j + 1) * BLOCK]
        fields = got[:HEAD].split(b"|")
        if len(fields) < 4 or fields[0].decode(errors="replace") != name:
            raise WrongBytes(f"{name}: block {offset // BLOCK + j} is not this entry's: {got[:40]!r}")
        v, index = int(fields[1]), int(fields[2])
        if index != offset // BLOCK + j or (version is not None and v != version):
            raise WrongBytes(f"{name}: block {index} of version {v} at block {offset // BLOCK + j}"
                             f" of version {version}")
        if got != block(name, v, index):
            raise WrongBytes(f"{name}: block {index} of version {v} has wrong bytes")
        version = v
    return version


class Counts:
    def __init__(self):
        self.lock = threading.Lock()
        self.values = {}
        self.wrong = []

    def add(self, key, n=1):
        with self.lock:
            self.values[key] = self.values.get(key, 0) + n


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def write_tree(src, versions, names):
    if src.exists():
        shutil.rmtree(src)
    for name in names:
        p = src / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content(name, versions[name]))


def writer(root, stop, counts, rnd):
    """Commits to a.hpf and replaces b.hpf by rename, in turns, until stopped."""
    versions = {"a": {n: 0 for n in NAMES}, "b": {n: 0 for n in NAMES}}
    work = root.parent / "work"
    while not stop.is_set():
        op = rnd.choice(["add", "add", "rm", "compact", "replace"])
        if op == "add":
            names = rnd.sample(NAMES, 6)
            for n in names:
                versions["a"][n] += 1
            write_tree(work / "add", versions["a"], names)
            r = run([HPF, "add", "--replace", str(root / "a.hpf"), str(work / "add")])
        elif op == "rm":
            r = run([HPF, "rm", str(root / "a.hpf"), rnd.choice(NAMES)])
            if "no entry" in r.stderr or "not in" in r.stderr:
                r = subprocess.CompletedProcess(r.args, 0)
        elif op == "compact":
            r = run([HPF, "compact", "--reclaim", "--grace", "0", str(root / "a.hpf")])
        else:
            for n in NAMES:
                versions["b"][n] += 1
            write_tree(work / "b-src", versions["b"], NAMES)
            next_archive = root.parent / "b-next.hpf"
            if next_archive.exists():
                shutil.rmtree(next_archive)
            r = run([HPF, "create", str(next_archive), str(work / "b-src")])
            if r.returncode == 0:
                old = root.parent / f"b-old-{time.monotonic_ns()}"
                os.rename(root / "b.hpf", old)
                os.rename(next_archive, root / "b.hpf")
                shutil.rmtree(old)  # readers may still hold its files open
        counts.add(f"writer_{op}" if r.returncode == 0 else f"writer_{op}_failed")


def flipper(root, stop, counts, rnd):
    """Flips a byte of a part or segment file, waits, puts it back; over and over."""
    while not stop.is_set():
        files = [p for p in root.glob("*.hpf/*") if p.suffix in (".hpfp", ".hpfs")]
        if not files:
            time.sleep(0.1)
            continue
        path = rnd.choice(files)
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:
            continue
        try:
            size = os.fstat(fd).st_size
            if size <= 64:
                continue
            at = rnd.randrange(64, size)
            was = os.pread(fd, 1, at)
            os.pwrite(fd, bytes([was[0] ^ 0xFF]), at)
            counts.add("flips")
            time.sleep(rnd.uniform(0.05, 0.5))
            os.pwrite(fd, was, at)  # the same inode, whatever became of the name meanwhile
        finally:
            os.close(fd)
        time.sleep(rnd.uniform(0.05, 0.3))


def http_reader(port, stop, counts, rnd):
    while not stop.is_set():
        archive, name = rnd.choice("ab"), rnd.choice(NAMES)
        size = blocks_of(name) * BLOCK
        first = rnd.randrange(blocks_of(name)) if rnd.random() < 0.5 else None
        req = urllib.request.Request(f"http://127.0.0.1:{port}/{archive}/{name}")
        offset = 0
        if first is not None:
            last = rnd.randrange(first, blocks_of(name))
            offset = first * BLOCK
            req.add_header("Range", f"bytes={offset}-{(last + 1) * BLOCK - 1}")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                data = r.read()
                if r.status == 200 and len(data) != size:
                    counts.add("http_cut")  # a body cut short: damage found mid-response
                    data = data[:len(data) - len(data) % BLOCK]
        except urllib.error.HTTPError as e:
            counts.add(f"http_{e.code}")
            continue
        except Exception:  # noqa: BLE001 - a connection closed mid-body is a refusal
            counts.add("http_cut")
            continue
        verify(counts, f"{archive}/{name}", name, data, offset, "http")


def mount_reader(mnt, stop, counts, rnd):
    while not stop.is_set():
        archive, name = rnd.choice("ab"), rnd.choice(NAMES)
        path = mnt / archive / name
        try:
            with open(path, "rb") as f:
                if rnd.random() < 0.5:
                    offset, data = 0, f.read()
                else:
                    first = rnd.randrange(blocks_of(name))
                    n = rnd.randrange(1, blocks_of(name) - first + 1)
                    offset = first * BLOCK
                    data = os.pread(f.fileno(), n * BLOCK, offset)
        except FileNotFoundError:
            counts.add("mount_missing")
            continue
        except OSError as e:
            counts.add(f"mount_errno_{e.errno}")
            continue
        verify(counts, f"{archive}/{name}", name, data, offset, "mount")


def verify(counts, where, name, data, offset, path):
    try:
        check(name, data, offset)
        counts.add(f"{path}_ok")
        counts.add(f"{path}_bytes", len(data))
    except WrongBytes as e:
        counts.add(f"{path}_wrong")
        with counts.lock:
            counts.wrong.append(f"{path} {where}: {e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--readers", type=int, default=2)
    ap.add_argument("--port", type=int, default=18490)
    args = ap.parse_args()
    rnd = random.Random(42)
    scratch = Path(tempfile.mkdtemp(prefix="hpf-soak-"))
    root, mnt = scratch / "archives", scratch / "mnt"
    root.mkdir()
    mnt.mkdir()
    serve = None
    mounted = False
    counts = Counts()
    try:
        for archive in "ab":
            write_tree(scratch / "src", {n: 0 for n in NAMES}, NAMES)
            r = run([HPF, "create", str(root / f"{archive}.hpf"), str(scratch / "src")])
            assert r.returncode == 0, r.stderr
        serve = subprocess.Popen([HPF, "serve", str(root), "--port", str(args.port),
                                  "--refresh-ms", "200"], stdout=subprocess.DEVNULL,
                                 stderr=open(scratch / "serve.log", "w"))
        r = run([HPF, "mount", str(root), str(mnt), "--log", str(scratch / "mount.log")])
        assert r.returncode == 0, r.stdout + r.stderr
        mounted = True
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{args.port}/_health", timeout=1)
                break
            except Exception:  # noqa: BLE001 - not up yet
                time.sleep(0.2)
        stop = threading.Event()
        threads = [threading.Thread(target=writer, args=(root, stop, counts, random.Random(1))),
                   threading.Thread(target=flipper, args=(root, stop, counts, random.Random(2)))]
        for i in range(args.readers):
            threads.append(threading.Thread(target=http_reader,
                                            args=(args.port, stop, counts, random.Random(10 + i))))
            threads.append(threading.Thread(target=mount_reader,
                                            args=(mnt, stop, counts, random.Random(20 + i))))
        start = time.monotonic()
        for t in threads:
            t.daemon = True
            t.start()
        while time.monotonic() - start < args.seconds:
            time.sleep(min(10, args.seconds))
            print(f"soak: {int(time.monotonic() - start)} s {json.dumps(counts.values)}",
                  file=sys.stderr)
        stop.set()
        for t in threads:
            t.join(timeout=120)
    finally:
        if mounted:
            run([HPF, "umount", str(mnt)])
        if serve is not None:
            serve.terminate()
            serve.wait(timeout=30)
    commit = run(["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"]).stdout.strip()
    line = {"benchmark": "soak", "seconds": args.seconds, "readers": 2 * args.readers,
            "commit": commit, **counts.values,
            "wrong_bytes_reads": len(counts.wrong)}
    out = HERE / "bench-results"
    out.mkdir(exist_ok=True)
    with open(out / "soak.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    print(json.dumps(line))
    for w in counts.wrong[:20]:
        print("WRONG: " + w, file=sys.stderr)
    shutil.rmtree(scratch, ignore_errors=True)
    reads = counts.values.get("http_ok", 0) + counts.values.get("mount_ok", 0)
    if counts.wrong or reads == 0:
        sys.exit(1)


if __name__ == "__main__":
    main()
